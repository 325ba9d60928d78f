// The benchmark report's chart: speedup over the sequential Java loop per workload and column, as PNG and SVG (XChart).
package dev.loopjit.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.style.Styler;

/**
 * Draws {@link Report.SideBySide} as grouped bars: one group per workload and size, one bar per
 * column (parallel streams, the Vector API, each device's kernel only), the height the sequential
 * loop's time divided by the column's; the line at 1× is the sequential loop itself. XChart, because
 * it draws bar charts to PNG and SVG in a few calls from Maven Central, with no native code and no
 * display (AWT runs headless).
 */
final class Chart {
  private Chart() {}

  /** Writes {@code file}.png and {@code file}.svg; the subtitle names the JDK. */
  static void speedups(Report.SideBySide data, String jdk, Path file) throws IOException {
    if (data.rows().isEmpty()) return;
    System.setProperty("java.awt.headless", "true");
    List<String> rows = new ArrayList<>(data.rows().keySet());
    List<String> labels = new ArrayList<>();
    for (String r : rows) {
      String[] l = Report.SideBySide.label(r);
      labels.add(l[1].equals("–") ? l[0] : l[0] + " " + l[1].replace(" ", ", "));
    }
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 130 * rows.size())).height(560)
        .title("Speedup over the sequential Java loop (above 1: faster)").xAxisTitle(jdk).yAxisTitle("× sequential Java").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setXAxisLabelRotation(20);
    chart.getStyler().setLabelsVisible(false);
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(16f));
    for (String column : data.columns()) {
      List<Double> ys = new ArrayList<>();
      boolean any = false;
      for (String r : rows) {
        double v = data.speedup(r, column);
        any |= !Double.isNaN(v);
        ys.add(Double.isNaN(v) ? 0.0 : v);
      }
      if (any) chart.addSeries(Report.title(column), labels, ys);
    }
    List<Double> ones = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) ones.add(1.0);
    chart.addSeries("sequential Java (1×)", labels, ones);
    if (file.getParent() != null) Files.createDirectories(file.getParent());
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    VectorGraphicsEncoder.saveVectorGraphic(chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }
}
