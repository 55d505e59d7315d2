"""The workload model (nodes, priority classes, applications, asks), its checks and rules, and synthetic workloads."""
