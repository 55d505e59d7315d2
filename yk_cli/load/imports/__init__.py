"""`yk import`'s readers: recorded traces (a CSV of jobs, the Helios trace, a kubectl pods history) -> recorded jobs
(core.workload.imports) with every bad row a located Problem."""
