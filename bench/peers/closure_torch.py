#!/usr/bin/env python3
"""PyTorch peers of the transitive-closure benchmark (bench/RESULTS.md, peer figures), run on the
same GPU in the same session as bench/closure_bench: boolean closure by repeated squaring on tensor
cores (fp16 matmul + clamp, until nothing changes) and, for n <= 2000, the loop
`R |= R[:,k] & R[k,:]`. Random digraphs with about 2 arcs per vertex (numpy's generator, so not the
same graphs as closure_bench: the same size and density). Median of 5 after a warm-up, CUDA events.
Prints Markdown; exits 0 without printing a table when torch or a GPU is missing."""
import sys

try:
    import torch
except ImportError:
    print("(PyTorch not installed: peers not measured)")
    sys.exit(0)
if not torch.cuda.is_available():
    print("(no CUDA device for PyTorch: peers not measured)")
    sys.exit(0)


def graph(n, seed):
    g = torch.Generator(device="cpu").manual_seed(seed)
    arcs = 2 * n
    a = torch.zeros(n, n, dtype=torch.float16)
    a[torch.randint(0, n, (arcs,), generator=g), torch.randint(0, n, (arcs,), generator=g)] = 1
    return a.cuda()


def squaring(a):
    r = a.clone()
    while True:
        nxt = torch.clamp(r @ r + r, max=1.0)
        if torch.equal(nxt, r):
            return r
        r = nxt


def k_loop(a):
    r = a.bool()
    for k in range(r.shape[0]):
        r |= r[:, k:k + 1] & r[k:k + 1, :]
    return r


def timed(fn, a):
    fn(a)
    torch.cuda.synchronize()
    times = []
    for _ in range(5):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn(a)
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[2]


print(f"PyTorch {torch.__version__} on {torch.cuda.get_device_name()}\n")
print("| n | tensor-core squaring (ms) | `R |= R[:,k] & R[k,:]` loop (ms) |")
print("|---:|---:|---:|")
for n in [1000, 2000, 5000, 10000]:
    a = graph(n, n)
    sq = timed(squaring, a)
    loop = f"{timed(k_loop, a):.2f}" if n <= 2000 else "-"
    print(f"| {n} | {sq:.3f} | {loop} |")
