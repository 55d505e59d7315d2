"""Toy evaluations for the executor tests and benchmark: seeded, CPU-bound, deterministic; shared inputs that record
each time they are unpickled; whether a worker process is gone."""

from __future__ import annotations

import os
import random
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Shared:
    """A few MB of bytes every evaluation reads, how long an evaluation works, and a folder for markers."""

    blob: bytes
    work: int
    """Inner-loop iterations of an evaluation (about 1.5 million a second on this machine)."""
    folder: str
    kill_point: int = -1
    """The point whose first evaluation kills its worker process."""

    def __reduce__(self) -> tuple[object, ...]:
        return (_unpickled, (self.blob, self.work, self.folder, self.kill_point))


def _unpickled(blob: bytes, work: int, folder: str, kill_point: int) -> Shared:
    """Unpickling a Shared leaves a file named after the process in its folder."""
    (Path(folder) / f"unpickled-{os.getpid()}-{uuid.uuid4().hex}").touch()
    return Shared(blob, work, folder, kill_point)


def make_shared(folder: Path, megabytes: int = 4, work: int = 120_000, kill_point: int = -1) -> Shared:
    """Seeded bytes of the given size."""
    return Shared(random.Random(27).randbytes(megabytes << 20), work, str(folder), kill_point)


def unpickled_by(folder: Path) -> list[int]:
    """The process ids that unpickled a Shared of this folder, once per unpickling."""
    return sorted(int(path.name.split("-")[1]) for path in folder.glob("unpickled-*"))


def seeded(shared: Shared, point: int) -> tuple[int, float, int]:
    """(point, a float accumulated over shared.work seeded steps, a checksum of bytes of the blob)."""
    rng = random.Random(point)
    total = 0.0
    checksum = 0
    size = len(shared.blob)
    for step in range(shared.work):
        x = rng.random()
        total += x * x / (1.0 + step % 7)
        if step % 64 == 0:
            checksum = (checksum * 31 + shared.blob[rng.randrange(size)]) % 1_000_000_007
    return point, total, checksum


def dies_once(shared: Shared, point: int) -> tuple[int, float, int]:
    """seeded(), but the first evaluation of shared.kill_point kills its own process (SIGKILL), as the OOM killer
    would: a marker file makes it happen once across processes."""
    if point == shared.kill_point:
        marker = Path(shared.folder) / "killed"
        try:
            marker.touch(exist_ok=False)
        except FileExistsError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return seeded(shared, point)


def always_dies(shared: Shared, point: int) -> tuple[int, float, int]:
    """seeded(), but shared.kill_point kills its worker every time."""
    if point == shared.kill_point:
        os.kill(os.getpid(), signal.SIGKILL)
    return seeded(shared, point)


def fails_on_odd_after_two(shared: Shared, point: int) -> tuple[int, float, int]:
    """seeded(), but points 3, 5, 7, ... raise."""
    if point > 2 and point % 2:
        raise ValueError(f"point {point} is odd")
    return seeded(shared, point)


def timed_seeded(shared: Shared, point: int) -> tuple[int, float, int]:
    """seeded(), its wall seconds appended to a file of this process in shared.folder (the benchmark's side channel:
    the results stay those of seeded())."""
    start = time.perf_counter()
    result = seeded(shared, point)
    with open(Path(shared.folder) / f"durations-{os.getpid()}", "a", encoding="ascii") as out:
        out.write(f"{time.perf_counter() - start}\n")
    return result


def durations(folder: Path) -> list[float]:
    """Every timed_seeded() duration recorded in the folder, and the files emptied."""
    found: list[float] = []
    for path in folder.glob("durations-*"):
        found.extend(float(line) for line in path.read_text(encoding="ascii").split())
        path.unlink()
    return found


def pid_of(shared: Shared, point: int) -> tuple[int, int]:
    """(point, the id of the process that evaluated it), after seeded()'s work."""
    seeded(shared, point)
    return point, os.getpid()


def gone(pid: int) -> bool:
    """Whether the process has exited (and been reaped), waiting a little for it."""
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False
