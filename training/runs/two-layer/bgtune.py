"""Fine-tune c-fit9-r2's contact net on back-game chunks only (b001-b002), measure on b003 (held out) and the yardstick."""
import sys, json
import numpy as np
from mlp import load, sig, equity

rate0, epochs, mix = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
P = {"w1": np.fromfile("cfit9.w1", "<f4").reshape(272, 128), "b1": np.fromfile("cfit9.b1", "<f4"),
     "w2": np.fromfile("cfit9.w2", "<f4").reshape(5, 128).T.copy(), "b2": np.fromfile("cfit9.b2", "<f4")}
M = {k: np.zeros_like(v) for k, v in P.items()}; V = {k: np.zeros_like(v) for k, v in P.items()}
def fwd(x):
    h = sig(x @ P["w1"] + P["b1"]); return h, sig(h @ P["w2"] + P["b2"])
def err(x, y):
    p = np.concatenate([fwd(x[i:i + 8192])[1] for i in range(0, len(x), 8192)])
    return float(np.abs(equity(p) - equity(y)).mean()), float((equity(p) - equity(y)).mean())
x, y, m = load("bg", 272)
tr = m[:, 0] < 2; ho = m[:, 0] == 2
xt, yt = x[tr], y[tr]
if mix:  # ordinary positions beside them, as a fraction of the back-game ones
    cx, cy, cm = load("contact", 272)
    pick = np.random.default_rng(5).choice(np.flatnonzero(cm[:, 0] < 36), int(mix * len(xt)), replace=False)
    xt, yt = np.concatenate([xt, cx[pick]]), np.concatenate([yt, cy[pick]])
ys = {n: load("y-" + n, 272)[:2] for n in ["pr", "backgame-player", "backgame-opponent"]}
def report(e):
    print(json.dumps({"epoch": e, "b003": err(x[ho], y[ho]), **{n: err(*v)[0] for n, v in ys.items()}}), flush=True)
report(-1)
rng = np.random.default_rng(1); t = 0
for e in range(epochs):
    rate = rate0 * 0.5 ** (e // 3)
    order = rng.permutation(len(xt))
    for i in range(0, len(order), 128):
        j = order[i:i + 128]; xb, tb = xt[j], yt[j]
        h, p = fwd(xb); d = (p - tb) / len(j)
        G = {"w2": h.T @ d, "b2": d.sum(0)}
        d1 = (d @ P["w2"].T) * h * (1 - h)
        G["w1"] = xb.T @ d1; G["b1"] = d1.sum(0); t += 1
        for k, g in G.items():
            M[k] = 0.9 * M[k] + 0.1 * g; V[k] = 0.999 * V[k] + 0.001 * g * g
            P[k] -= (rate * (M[k] / (1 - 0.9 ** t)) / (np.sqrt(V[k] / (1 - 0.999 ** t)) + 1e-8)).astype(np.float32)
    report(e)
