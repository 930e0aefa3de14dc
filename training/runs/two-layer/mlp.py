"""Numpy MLP fits on dumped inputs: does a second hidden layer help?"""
import sys, time, json
import numpy as np

def load(prefix, ninputs):
    x = np.fromfile(prefix + ".x", dtype="<f4").reshape(-1, ninputs)
    y = np.fromfile(prefix + ".y", dtype="<f4").reshape(-1, 5)
    m = np.fromfile(prefix + ".meta", dtype="u1").reshape(-1, 2)
    return x, y, m

def sig(z):
    return 1.0 / (1.0 + np.exp(-z))

def equity(p):
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]

class Net:
    def __init__(self, sizes, act, seed):
        rng = np.random.default_rng(seed)
        self.W, self.b = [], []
        for a, b in zip(sizes[:-1], sizes[1:]):
            s = np.sqrt(1.0 / a) * (2.0 if act == "sigmoid" else 1.0)
            self.W.append((rng.standard_normal((a, b)) * s).astype(np.float32))
            self.b.append(np.zeros(b, np.float32))
        self.act = act
        self.m = [np.zeros_like(p) for p in self.W + self.b]
        self.v = [np.zeros_like(p) for p in self.W + self.b]
        self.t = 0

    def f(self, z):
        if self.act == "sigmoid":
            return sig(z)
        if self.act == "relu":
            return np.maximum(z, 0)
        if self.act == "crelu":
            return np.clip(z, 0, 1)

    def df(self, h, z):
        if self.act == "sigmoid":
            return h * (1 - h)
        if self.act == "relu":
            return (z > 0).astype(np.float32)
        if self.act == "crelu":
            return ((z > 0) & (z < 1)).astype(np.float32)

    def forward(self, x, keep=False):
        hs, zs = [x], []
        for i, (W, b) in enumerate(zip(self.W, self.b)):
            z = hs[-1] @ W + b
            zs.append(z)
            hs.append(sig(z) if i == len(self.W) - 1 else self.f(z))
        return (hs, zs) if keep else hs[-1]

    def step(self, x, t, lr):
        hs, zs = self.forward(x, True)
        d = (hs[-1] - t) / len(x)  # cross-entropy through sigmoid outputs
        gW, gb = [], []
        for i in range(len(self.W) - 1, -1, -1):
            gW.append(hs[i].T @ d)
            gb.append(d.sum(0))
            if i > 0:
                d = (d @ self.W[i].T) * self.df(hs[i], zs[i - 1])
        grads = gW[::-1] + gb[::-1]
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        params = self.W + self.b
        for k, (p, g) in enumerate(zip(params, grads)):
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1 ** self.t)
            vh = self.v[k] / (1 - b2 ** self.t)
            p -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)

def score(net, x, y):
    p = np.concatenate([net.forward(x[i:i + 8192]) for i in range(0, len(x), 8192)])
    return float(((p - y) ** 2).mean()), float(np.abs(equity(p) - equity(y)).mean())

def main():
    prefix, ninputs, hidden, act, epochs, lr, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
    heldout = [int(v) for v in sys.argv[8].split(",")] if len(sys.argv) > 8 else []
    x, y, m = load(prefix, ninputs)
    hold = np.isin(m[:, 0], heldout)
    val = (m[:, 1] == 1) & ~hold
    tr = ~val & ~hold
    sizes = [ninputs] + [int(h) for h in hidden.split(",")] + [5]
    net = Net(sizes, act, seed)
    rng = np.random.default_rng(seed + 1)
    idx = np.flatnonzero(tr)
    xt, yt = x[idx], y[idx]
    best = None
    for e in range(epochs):
        t0 = time.time()
        order = rng.permutation(len(xt))
        rate = lr * (0.5 ** max(0, (e - epochs // 2) / (epochs / 8)))
        for i in range(0, len(order), 256):
            j = order[i:i + 256]
            net.step(xt[j], yt[j], rate)
        r = {"epoch": e, "rate": rate, "train": score(net, xt[:50000], yt[:50000]), "val": score(net, x[val], y[val])}
        if heldout:
            r["held"] = score(net, x[hold], y[hold])
        r["s"] = round(time.time() - t0, 1)
        print(json.dumps(r), flush=True)
    ys = {}
    for name in ["pr", "backgame-player", "backgame-opponent"]:
        yx, yy, _ = load("y-" + name, ninputs)
        ys[name] = score(net, yx, yy)
    print(json.dumps({"yardstick": ys}), flush=True)
    np.savez(f"net-{hidden}-{act}-{seed}.npz", *net.W, *net.b)

if __name__ == "__main__":
    main()
