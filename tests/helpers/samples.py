"""The bundled sample workloads and the queue config each one names in its first line (`# config: PATH`)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.paths import SAMPLES


def _config_of(workload: Path) -> str:
    first = workload.read_text().splitlines()[0]
    return first.split(": ", 1)[1] if first.startswith("# config: ") else "samples/queues/tenants.yaml"



WORKLOADS = sorted((SAMPLES / "workloads").glob("*.yaml"))
