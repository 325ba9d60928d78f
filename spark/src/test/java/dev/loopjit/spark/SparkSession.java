// The tests' Spark: local[2] on 127.0.0.1 (a failed task tried up to 4 times), UI off, one context per test class.
package dev.loopjit.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

final class SparkSession {
  private SparkSession() {}

  static JavaSparkContext start(String name) {
    SparkConf conf = new SparkConf().setMaster("local[2,4]").setAppName(name)
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.showConsoleProgress", "false");
    JavaSparkContext sc = new JavaSparkContext(conf);
    sc.setLogLevel("ERROR");
    return sc;
  }
}
