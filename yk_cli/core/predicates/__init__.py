"""Kubernetes node predicates (the default scheduler's Filter plugins), shared by the YuniKorn and Volcano dry runs."""
