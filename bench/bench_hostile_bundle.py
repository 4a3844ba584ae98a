"""Benchmark: `pbp audit` on the bundles a stranger builds to exhaust the auditor's machine.

- a 0.4 MB bundle whose world.yaml unpacks to 400 MB (gzip of one repeated byte);
- a million empty members (4.7 MB);
- an extended (PAX) header of 32 MB, which tarfile would read whole;
- the largest bundle the audit accepts: the manhunt example's, padded with
  members of the largest size allowed up to the total allowed (all held in
  memory: its peak is what MAX_BYTES costs the auditor);
and, for scale, `pbp audit` of an honest bundle (the manhunt example's `pbp reveal`).

The hostile bundles are built once and cached in bench/out/. Each is refused;
the figures are the refusal's CPU time and peak memory (the child's, read
through GNU time). Goals: each hostile bundle under 1 s of CPU and 200 MB.
Prints figures, asserts nothing.

    python bench/bench_hostile_bundle.py [--quick] [--rounds N] [--rebuild]
"""

from __future__ import annotations

import gzip
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
HERE = T.OUT / "hostile-bundles"


def _header(name: str, size: int, pax: dict | None = None) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    if pax:
        info.pax_headers = pax
        return info.tobuf(tarfile.PAX_FORMAT)
    return info.tobuf()


def build(rebuild: bool) -> dict[str, Path]:
    HERE.mkdir(parents=True, exist_ok=True)
    bundles = {name: HERE / f"{name}.tar.gz" for name in ("400MB-world", "million-members", "32MB-pax-header")}
    if rebuild or not all(p.exists() for p in bundles.values()):
        campaign = _header("campaign/campaign.yaml", 0)
        with gzip.open(bundles["400MB-world"], "wb", compresslevel=9) as gz:
            size = 400 * 1024 * 1024
            gz.write(campaign + _header("campaign/world.yaml", size))
            chunk = b"a" * (1024 * 1024)
            for _ in range(size // len(chunk)):
                gz.write(chunk)
            gz.write(b"\0" * 1024)
        with gzip.open(bundles["million-members"], "wb", compresslevel=9) as gz:
            gz.write(campaign)
            for i in range(1_000_000):
                gz.write(_header(f"campaign/turns/001/orders/p{i}.yaml", 0))
            gz.write(b"\0" * 1024)
        with gzip.open(bundles["32MB-pax-header"], "wb", compresslevel=9) as gz:
            gz.write(_header("campaign/campaign.yaml", 0, {"comment": "x" * (32 * 1024 * 1024)}))
            gz.write(b"\0" * 1024)
    return bundles


def honest(tmp: Path) -> Path:
    camp = tmp / "manhunt"
    shutil.copytree(REPO / "campaigns" / "manhunt", camp, ignore=shutil.ignore_patterns(".pbp.lock"))
    bundle = tmp / "manhunt.tar.gz"
    T.run([*T.PBP, "-C", str(camp), "reveal", "--before-end", "--output", str(bundle)])
    return bundle


def largest_accepted(honest_bundle: Path, tmp: Path) -> Path:
    """The honest bundle padded to the audit's limits: members of
    MAX_MEMBER_BYTES (a private report nobody reads) until the total is just
    under MAX_BYTES. Every byte is held in memory during the audit."""
    sys.path.insert(0, str(REPO))
    from pbp.trust.audit import MAX_BYTES, MAX_MEMBER_BYTES

    bundle = tmp / "largest-accepted.tar.gz"
    total = 0
    with tarfile.open(honest_bundle, "r:gz") as source, gzip.open(bundle, "wb", compresslevel=1) as gz:
        for member in source:
            data = source.extractfile(member).read() if member.isfile() else b""
            total += len(data)
            gz.write(member.tobuf(tarfile.PAX_FORMAT) + data + b"\0" * (-len(data) % tarfile.BLOCKSIZE))
        i = 0
        while total + 1024 < MAX_BYTES:
            size = min(MAX_MEMBER_BYTES, MAX_BYTES - total - 1024)
            gz.write(_header(f"campaign/turns/000/private/pad{i}.bbcode", size))
            chunk = b"a" * (1024 * 1024)
            for start in range(0, size, len(chunk)):
                gz.write(chunk[: min(len(chunk), size - start)])
            gz.write(b"\0" * (-size % tarfile.BLOCKSIZE))
            total += size
            i += 1
        gz.write(b"\0" * 1024)
    return bundle


def main() -> None:
    p = T.parser(__doc__, rounds_default=5, rounds_quick=1)
    p.add_argument("--rebuild", action="store_true", help="build the hostile bundles again")
    args = p.parse_args()
    T.header("pbp audit on hostile bundles (bench/bench_hostile_bundle.py)", args)
    bundles = build(args.rebuild)
    with tempfile.TemporaryDirectory(prefix="pbp-bench-bundle-") as tmp:
        steps = [T.Step(name, [*T.PBP, "audit", str(path)], memory=True) for name, path in bundles.items()]
        honest_bundle = honest(Path(tmp))
        largest = largest_accepted(honest_bundle, Path(tmp))
        steps.append(T.Step("largest accepted", [*T.PBP, "audit", str(largest)], memory=True))
        steps.append(T.Step("honest (manhunt, 5 turns)", [*T.PBP, "audit", str(honest_bundle)], memory=True))
        results = T.Results()
        for _ in range(T.rounds_of(args)):
            for step in steps:
                # the hostile ones are refused (exit 1): the figure is the refusal's cost
                results.add(step.name, T.run(step.cmd, check=False, memory=True))
    for name, path in bundles.items():
        size = path.stat().st_size / 1e6
        print(T.figure(f"{name}: CPU", results.median(name, "cpu"), 1.0, " s", detail=f"bundle {size:.1f} MB"))
        print(T.figure(f"{name}: peak memory", results.peak(name), 200, " MB", digits=0))
    name = "largest accepted"
    print(T.figure(f"{name}: CPU", results.median(name, "cpu"), None, " s"))
    print(T.figure(f"{name}: peak memory", results.peak(name), 200, " MB", digits=0))
    honest_name = steps[-1].name
    print(T.figure(f"{honest_name}: CPU", results.median(honest_name, "cpu"), None, " s"))
    print(T.figure(f"{honest_name}: peak memory", results.peak(honest_name), None, " MB", digits=0))


if __name__ == "__main__":
    main()
