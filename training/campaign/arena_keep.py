#!/usr/bin/env python3
"""Arena runs kept with a shipped net, so that a later session pairs a new
net with it without playing its games again (about 25 minutes of both
cores for 20 seeds against gnubg and 4 against pubeval).

    python3 training/campaign/arena_keep.py keep training/runs/NAME/arena.jsonl.gz \
        training/work/arena/NAME-A.jsonl ... training/work/pubeval/NAME-PUB7.jsonl ...
    python3 training/campaign/arena_keep.py restore training/runs/NAME/arena.jsonl.gz

`keep` writes one gzipped JSON line per run: its path under training/work,
the arena's summary (the same dice: seed, pairs, both players) and the
points of its games in order (pair 0 game 0, pair 0 game 1, ...); a
game's turns are not kept. `restore` writes each run back under
training/work (its games, with the fields scripts/arena_paired.py reads,
and its summary, which arena.sh takes for "done already"), leaving runs
that are there already as they are. The arena is deterministic here
(c-fit13's 200,000 games replayed to the same figures), so a restored run
is the run.
"""
import gzip, json, os, sys, tempfile

# training/work of the checkout this script is in, wherever it is run from.
WORK = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "work"))
MAX_BYTES = 64 << 20  # a kept file of 24 runs is about 90 kB


def fail(msg):
    sys.exit(f"error: {msg}")


def summary_path(run):
    return run[: -len(".jsonl")] + ".summary.json"


def read_run(path):
    if not path.endswith(".jsonl"):
        fail(f"{path}: not an arena run (NAME.jsonl)")
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(WORK))
    if rel.startswith(".."):
        fail(f"{path}: not under training/work")
    try:
        if os.path.getsize(path) > MAX_BYTES:
            fail(f"{path}: larger than {MAX_BYTES} bytes")
        games = {}
        with open(path) as f:
            for line in f:
                g = json.loads(line)
                if g.get("type") != "game":
                    continue
                games[(g["pair"], g["game"])] = g["points"]
        with open(summary_path(path)) as f:
            summary = json.load(f)
    except (OSError, ValueError, KeyError) as e:
        fail(f"{path}: {e}")
    try:
        first, last = summary["pairs"]
        expected = [(p, k) for p in range(first, last) for k in (0, 1)]
    except (KeyError, TypeError, ValueError):
        fail(f"{path}: its summary names no pairs")
    if not summary.get("complete") or sorted(games) != expected:
        fail(f"{path}: not a complete run (its summary says pairs {first}..{last})")
    return {"file": rel, "summary": summary, "points": [games[k] for k in expected]}


def write_atomic(path, data, mode="w"):
    """A unique temporary file beside `path`, synced, then renamed over it."""
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
        fail(f"{path}: exists and is not a plain file")
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".arena_keep.")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, mode) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def keep(out, runs):
    if not runs:
        fail("name the arena runs to keep (training/work/arena/NAME-SEED.jsonl ...)")
    lines = "".join(json.dumps(read_run(r), separators=(",", ":")) + "\n" for r in runs)
    write_atomic(out, gzip.compress(lines.encode(), mtime=0), "wb")
    print(f"{len(runs)} runs kept in {out}")


def restore(kept):
    try:
        if os.path.getsize(kept) > MAX_BYTES:
            fail(f"{kept}: larger than {MAX_BYTES} bytes")
        with open(kept, "rb") as f:
            text = gzip.decompress(f.read()).decode()
        runs = [json.loads(line) for line in text.splitlines()]
    except (OSError, ValueError, EOFError) as e:
        fail(f"{kept}: {e}")
    for r in runs:
        rel = os.path.normpath(r["file"])
        if rel.startswith("..") or os.path.isabs(rel):
            fail(f"{kept}: a run outside training/work: {r['file']}")
        path = os.path.join(WORK, rel)
        if os.path.exists(summary_path(path)):
            print(f"{os.path.relpath(path)}: there already")
            continue
        games = "".join(
            json.dumps({"type": "game", "pair": i // 2, "game": i % 2, "first": "AB"[i % 2], "points": p}) + "\n"
            for i, p in enumerate(r["points"]))
        write_atomic(path, games)
        write_atomic(summary_path(path), json.dumps(r["summary"], indent=1) + "\n")
        print(f"{os.path.relpath(path)}: restored ({len(r['points'])} games)")


def main():
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "keep":
        keep(args[1], args[2:])
    elif len(args) == 2 and args[0] == "restore":
        restore(args[1])
    else:
        fail("usage: arena_keep.py keep OUT.jsonl.gz RUN.jsonl... | arena_keep.py restore KEPT.jsonl.gz")


if __name__ == "__main__":
    main()
