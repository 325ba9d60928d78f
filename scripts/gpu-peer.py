# PyTorch on the same GPU, the workloads of gpu-verify's JMH runs (scripts/gpu-verify's phase torch-peer): fp32 with TF32 off, as
# LoopJIT computes plain fp32. Prints one "NAME<TAB>MS ms" line each, best of three means; no LoopJIT code here.
import time, torch, sys
from torch import nn
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = "cuda"
print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)
def timeit(name, fn, reps=20, warm=5):
    for _ in range(warm): fn()
    torch.cuda.synchronize()
    best = 1e9
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps): fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / reps)
    print(f"{name}\t{best*1e3:.4f} ms", flush=True)
n = 1 << 26
a = torch.rand(n, device=dev); b = torch.rand(n, device=dev); c = torch.empty(n, device=dev)
timeit("vector-add n=1", lambda: torch.add(a[:1], b[:1], out=c[:1]), reps=200)
timeit("vector-add n=2^26", lambda: torch.add(a, b, out=c))
timeit("copy n=2^26", lambda: c.copy_(a))
timeit("saxpy n=2^26", lambda: torch.add(b, a, alpha=2.0, out=c))
for s in (2048, 4096):
    x = torch.rand(s, s, device=dev); y = torch.rand(s, s, device=dev); z = torch.empty(s, s, device=dev)
    timeit(f"matmul fp32 n={s}", lambda: torch.mm(x, y, out=z), reps=10)
xi = torch.rand(256, 784, device=dev); w = torch.rand(256, 784, device=dev); bi = torch.rand(256, device=dev)
timeit("dense 256x784x256", lambda: torch.relu(torch.addmm(bi, xi, w.t())))
def step_bench(name, model, x, y):
    opt = torch.optim.Adam(model.parameters(), lr=0.001); lf = nn.CrossEntropyLoss(); model.train()
    def step():
        opt.zero_grad(set_to_none=True); lf(model(x), y).backward(); opt.step()
    timeit(name, step)
torch.manual_seed(42)
step_bench("train-step mlp b128", nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).to(dev),
           torch.rand(128, 784, device=dev), torch.randint(0, 10, (128,), device=dev))
cnn = nn.Sequential(nn.Conv2d(1, 32, 3), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.BatchNorm2d(64),
                    nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25), nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10)).to(dev)
step_bench("train-step cnn b128", cnn, torch.rand(128, 1, 28, 28, device=dev), torch.randint(0, 10, (128,), device=dev))
try:
    from transformers import BertConfig, BertModel
    cfg = BertConfig(vocab_size=30522, hidden_size=384, num_hidden_layers=6, num_attention_heads=12, intermediate_size=1536)
    enc = BertModel(cfg).to(dev).eval()
    for t in (64, 128):
        ids = torch.randint(0, 30522, (32, t), device=dev); mask = torch.ones(32, t, device=dev, dtype=torch.long)
        with torch.no_grad():
            timeit(f"encoder minilm 32x{t}", lambda: enc(input_ids=ids, attention_mask=mask).last_hidden_state.mean(1), reps=10)
except Exception as e:
    print("encoder: skipped:", e, flush=True)
