"""The dry-run engine: YuniKorn's scheduling loop on a virtual clock, one module per stage.

state (queues, applications, asks, allocations), nodes (free resources and the node index), build (the run's
set-up), cycle (one scheduling outcome), commit (applying it), preemption (victims for an ask), reasons (why an
ask still waits) and run (the clock and the trace).
"""
