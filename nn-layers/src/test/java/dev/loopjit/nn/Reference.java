// The forward pass of any Sequential model in double precision, written again layer by layer from the layers' definitions, for gradient checks.
package dev.loopjit.nn;

/**
 * A second implementation of every layer's forward pass: plain double-precision Java, one batch
 * of V rows at a time (batch norm needs the whole batch), training mode (batch statistics;
 * dropout with the masks the device draws at step 1 for the step's seed, from the same hash).
 */
final class Reference {
  private Reference() {}

  /** The outputs (V, outputs) of the model with parameters {@code params} for {@code rows} (V, inputs). */
  static double[][] forward(Sequential m, double[] params, double[][] rows, int stepSeed) {
    double[][] a = rows;
    for (int k = 0; k < m.layers().size(); k++) a = layer(m.layers().get(k), k, m.shape(k), m.shape(k + 1), params, m.parameterOffset(k), a, stepSeed);
    return a;
  }

  private static double[][] layer(Layer l, int index, Shape in, Shape out, double[] p, int at, double[][] x, int stepSeed) {
    int v = x.length;
    double[][] y = new double[v][out.size()];
    switch (l) {
      case Dense d -> {
        int n = in.size();
        for (int r = 0; r < v; r++)
          for (int o = 0; o < d.units(); o++) {
            double s = p[at + d.units() * n + o];
            for (int i = 0; i < n; i++) s += x[r][i] * p[at + o * n + i];
            y[r][o] = s;
          }
      }
      case Activation act -> {
        for (int r = 0; r < v; r++) for (int i = 0; i < in.size(); i++) y[r][i] = GradientCheckTest.activationRef(act, x[r][i]);
      }
      case Conv2D c -> {
        int ch = in.channels(), h = in.dim(1), w = in.dim(2), oh = out.dim(1), ow = out.dim(2), k = c.kernel();
        for (int r = 0; r < v; r++)
          for (int f = 0; f < c.filters(); f++)
            for (int i = 0; i < oh; i++)
              for (int j = 0; j < ow; j++) {
                double s = c.bias() ? p[at + c.filters() * ch * k * k + f] : 0;
                for (int cc = 0; cc < ch; cc++)
                  for (int kh = 0; kh < k; kh++)
                    for (int kw = 0; kw < k; kw++) {
                      int ih = i * c.stride() + kh - c.padding(), iw = j * c.stride() + kw - c.padding();
                      if (ih >= 0 && ih < h && iw >= 0 && iw < w) s += x[r][(cc * h + ih) * w + iw] * p[at + ((f * ch + cc) * k + kh) * k + kw];
                    }
                y[r][(f * oh + i) * ow + j] = s;
              }
      }
      case MaxPool2D mp -> pool(x, y, in, out, mp.size(), mp.stride(), true);
      case AvgPool2D ap -> pool(x, y, in, out, ap.size(), ap.stride(), false);
      case Flatten f -> {
        for (int r = 0; r < v; r++) y[r] = x[r].clone();
      }
      case Dropout d -> {
        int n = in.size();
        for (int r = 0; r < v; r++)
          for (int i = 0; i < n; i++) {
            boolean keep = (DropoutKernels.hash(stepSeed * 31 + index, 1, r * n + i) >>> 8) >= d.threshold();
            y[r][i] = keep ? x[r][i] * (1f / (1f - d.rate())) : 0;
          }
      }
      case BatchNorm bn -> {
        int ch = in.channels(), s = in.spatial();
        for (int c = 0; c < ch; c++) {
          double sum = 0, sq = 0;
          for (int r = 0; r < v; r++) for (int i = 0; i < s; i++) sum += x[r][c * s + i];
          double mean = sum / (v * s);
          for (int r = 0; r < v; r++) for (int i = 0; i < s; i++) sq += (x[r][c * s + i] - mean) * (x[r][c * s + i] - mean);
          double inv = 1 / Math.sqrt(sq / (v * s) + bn.epsilon());
          for (int r = 0; r < v; r++) for (int i = 0; i < s; i++) y[r][c * s + i] = p[at + c] * (x[r][c * s + i] - mean) * inv + p[at + ch + c];
        }
      }
      case LayerNorm ln -> {
        int n = in.size();
        for (int r = 0; r < v; r++) {
          double sum = 0, sq = 0;
          for (int i = 0; i < n; i++) sum += x[r][i];
          double mean = sum / n;
          for (int i = 0; i < n; i++) sq += (x[r][i] - mean) * (x[r][i] - mean);
          double inv = 1 / Math.sqrt(sq / n + ln.epsilon());
          for (int i = 0; i < n; i++) y[r][i] = p[at + i] * (x[r][i] - mean) * inv + p[at + n + i];
        }
      }
    }
    return y;
  }

  private static void pool(double[][] x, double[][] y, Shape in, Shape out, int size, int stride, boolean max) {
    int ch = in.channels(), h = in.dim(1), w = in.dim(2), oh = out.dim(1), ow = out.dim(2);
    for (int r = 0; r < x.length; r++)
      for (int c = 0; c < ch; c++)
        for (int i = 0; i < oh; i++)
          for (int j = 0; j < ow; j++) {
            double s = max ? Double.NEGATIVE_INFINITY : 0;
            for (int kh = 0; kh < size; kh++)
              for (int kw = 0; kw < size; kw++) {
                double e = x[r][(c * h + i * stride + kh) * w + j * stride + kw];
                s = max ? Math.max(s, e) : s + e;
              }
            y[r][(c * oh + i) * ow + j] = max ? s : s / (size * size);
          }
  }
}
