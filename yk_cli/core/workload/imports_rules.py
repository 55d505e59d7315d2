"""The rules of `yk import`: a row of a recorded trace (or a pod of a kubectl history) that cannot be imported."""

from __future__ import annotations

from yk_cli.core.diagnostics import error

BAD_ROW = error(
    "import-bad-row",
    "A row of an imported trace (CSV of jobs, Helios trace, quota file) yk cannot turn into a job.",
    "`yk import csv` and `yk import helios` read one job per row: a row whose submit time, duration, start, "
    "resources, count or priority cannot be read, with a missing value, or a job id that repeats, is reported "
    "at its file:line with the column it is about. Nothing is written and yk exits 1, unless --skip-bad-rows is "
    "given: then each bad row is a warning and is left out. A quota file's bad rows are reported the same way.",
)
BAD_POD = error(
    "import-bad-pod",
    "A pod of an imported `kubectl get pods -A -o yaml` history yk cannot replay.",
    "`yk import pods` replays each pod from its creationTimestamp, status.startTime and its containers' "
    "finishedAt: a pod without a readable creationTimestamp, with an unreadable time or resource request, or "
    "one that finished before it started, is reported at its line. Nothing is written and yk exits 1, unless "
    "--skip-bad-rows is given: then it is a warning and the pod is left out.",
)

IMPORT_RULES = (BAD_ROW, BAD_POD)
