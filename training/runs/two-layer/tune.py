"""Fine-tune c-fit8's contact net in numpy, with or without a second hidden
layer beside the first (out = sig(h1 W2 + sig(h1 W3 + b3) W4 + b2), W4 = 0 at start)."""
import sys, json, time
import numpy as np
sys.argv, argv = sys.argv[:1], sys.argv
from mlp import load, sig, equity  # noqa

def main():
    extra, epochs, lr, seed = int(argv[1]), int(argv[2]), float(argv[3]), int(argv[4])
    tag = argv[5] if len(argv) > 5 else ""
    rng = np.random.default_rng(seed)
    P = {"w1": np.fromfile("cfit8.w1", "<f4").reshape(272, 128), "b1": np.fromfile("cfit8.b1", "<f4"),
         "w2": np.fromfile("cfit8.w2", "<f4").reshape(5, 128).T.copy(), "b2": np.fromfile("cfit8.b2", "<f4")}
    if extra:
        P["w3"] = (rng.standard_normal((128, extra)) * 2 / np.sqrt(128)).astype(np.float32)
        P["b3"] = np.zeros(extra, np.float32)
        P["w4"] = np.zeros((extra, 5), np.float32)
    M = {k: np.zeros_like(v) for k, v in P.items()}
    V = {k: np.zeros_like(v) for k, v in P.items()}

    def fwd(x):
        h1 = sig(x @ P["w1"] + P["b1"])
        z = h1 @ P["w2"] + P["b2"]
        h2 = None
        if extra:
            h2 = sig(h1 @ P["w3"] + P["b3"])
            z = z + h2 @ P["w4"]
        return h1, h2, sig(z)

    def score(x, y):
        p = np.concatenate([fwd(x[i:i + 8192])[2] for i in range(0, len(x), 8192)])
        return float(((p - y) ** 2).mean()), float(np.abs(equity(p) - equity(y)).mean())

    x, y, m = load("contact", 272)
    hold = np.isin(m[:, 0], [36, 37])
    val = (m[:, 1] == 1) & ~hold
    idx = np.flatnonzero(~val & ~hold)
    xt, yt = x[idx], y[idx]
    ys = {n: load("y-" + n, 272)[:2] for n in ["pr", "backgame-player", "backgame-opponent"]}
    t = 0
    for e in range(epochs):
        order = rng.permutation(len(xt))
        rate = lr * 0.5 ** (e // 3)
        for i in range(0, len(order), 128):
            j = order[i:i + 128]
            xb, tb = xt[j], yt[j]
            h1, h2, p = fwd(xb)
            d = (p - tb) / len(j)
            G = {"w2": h1.T @ d, "b2": d.sum(0)}
            dh1 = d @ P["w2"].T
            if extra:
                G["w4"] = h2.T @ d
                d2 = (d @ P["w4"].T) * h2 * (1 - h2)
                G["w3"] = h1.T @ d2
                G["b3"] = d2.sum(0)
                dh1 = dh1 + d2 @ P["w3"].T
            d1 = dh1 * h1 * (1 - h1)
            G["w1"] = xb.T @ d1
            G["b1"] = d1.sum(0)
            t += 1
            for k, g in G.items():
                M[k] = 0.9 * M[k] + 0.1 * g
                V[k] = 0.999 * V[k] + 0.001 * g * g
                P[k] -= (rate * (M[k] / (1 - 0.9 ** t)) / (np.sqrt(V[k] / (1 - 0.999 ** t)) + 1e-8)).astype(np.float32)
        r = {"epoch": e, "rate": rate, "train": score(xt[:50000], yt[:50000]), "val": score(x[val], y[val]),
             "held": score(x[hold], y[hold]), "yard": {n: score(*v)[1] for n, v in ys.items()}}
        print(json.dumps(r), flush=True)
    np.savez(f"tuned-{extra}-{seed}{tag}.npz", **P)

main()
