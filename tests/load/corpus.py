"""Every YAML text at hand (samples, test data, real-world configs and the queues.yaml embedded in them), as the
load tests read them: CORPUS, a list of (name, text)."""

from __future__ import annotations

from tests.helpers.paths import DATA, REALWORLD, ROOT, SAMPLES


def corpus() -> list[tuple[str, str]]:
    """(name, text) of every YAML text at hand: samples, real-world configs and the queues.yaml inside them."""
    texts = [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted(SAMPLES.rglob("*.yaml"))]
    texts += [
        (str(p.relative_to(ROOT)), p.read_text())
        for p in sorted(DATA.rglob("*.yaml"))
        if REALWORLD not in p.parents and p.stat().st_size < 200_000
    ]
    for path in sorted((REALWORLD / "configs").glob("*.yaml")):
        text = path.read_text()
        texts.append((path.name, text))
        for i, doc in enumerate(_embedded(text)):
            texts.append((f"{path.name}#{i}", doc))
    return texts



def _embedded(text: str) -> list[str]:
    from ruamel.yaml import YAML

    try:
        docs = list(YAML(typ="safe", pure=True).load_all(text))
    except Exception:
        return []
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key == "queues.yaml" and isinstance(inner, str):
                    found.append(inner)
                else:
                    walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for doc in docs:
        walk(doc)
    return found



CORPUS = corpus()
