"""The dry-run engine: YuniKorn core's scheduling cycle on a virtual clock, one module per stage.

The core's scheduler loop (scheduler.go) runs ClusterContext.schedule, that is partition.TrySchedule, at least
every 100 ms; yk runs the same cycle whenever something changed, one outcome per cycle, on virtual time:

| the core                                                   | yk                                                  |
| ---------------------------------------------------------- | --------------------------------------------------- |
| scheduler loop, partition.TrySchedule                      | run.py (Simulation: the loop, the trace)            |
| reservation pass (tryReservedAllocate), reservation expiry | cycle.py (find_decision), timeouts.py               |
| placeholder replacement (tryPlaceholderAllocate)           | gang.py                                             |
| queue sort -> application sort -> ask sort                 | cycle.py on the keys of state.py (core.ordering)    |
| headroom checks: queue max, user and group limits          | cycle.py, ugm.py                                    |
| application backoff (skipped apps, unschedulable asks)     | backoff.py                                          |
| node iteration (NodeCollection, tryNodes / tryNode)        | nodes.py (NodeIndex), placing.py (fit, predicates)  |
| try allocate / reserve                                     | cycle.py (a Decision, nothing changed yet)          |
| preemption: CheckPreconditions, then the Preemptor         | preconditions.py, preemption.py (resmap.py)         |
| commit: allocate, reserve, unreserve, release victims      | commit.py                                           |

and the timers, each an event kind of events.py (the clock, its heap, their payloads and the timing constants):

| timer                                          | event kind          | module           |
| ---------------------------------------------- | ------------------- | ---------------- |
| reservation delay (2 s before an ask reserves) | OLD                 | commit.py        |
| preemption delay and the 15 s retry wait       | PREEMPT_READY       | preconditions.py |
| quota preemption (quota.preemption.delay)      | QUOTA               | quota.py         |
| gang placeholder timeout                       | GANG_TIMER          | gang.py          |
| application backoff deadline                   | WAKE                | backoff.py       |
| reservation wait timeout (2 x 60 min)          | RESERVATION_EXPIRED | timeouts.py      |
| Starting state timeout (YuniKorn <= 1.5)       | STARTED             | commit.py        |

build.py sets up the run and holds RunState, the state every stage shares (the model, then its parts: the clock,
counters, caches, waiting asks and the gang, user-group and backoff subsystems); reasons.py says why an ask still
waits; trace.py is the run's vocabulary and unmodelled.py what it does not model.

The same cycle, written naively (every priority recomputed, every queue, application and ask sorted, every node
scanned, nothing cached or pruned), is tests/core/sim/sim_reference.py: the readable model of this engine, run
against it by tests/core/sim/test_sim_reference.py.
"""
