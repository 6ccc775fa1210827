

def write_result(out, result: dict, shown: dict | None = None) -> None:
    """Write a benchmark's JSON result (creating bench/results/) and print it, or `shown` instead."""
    import json
    from pathlib import Path

    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result if shown is None else shown, indent=2))
