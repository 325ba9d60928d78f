// A training step split in two (GradientStep on a worker, ParameterUpdate elsewhere) equals the whole step bit for bit, on every device.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SplitStepTest {
  private static List<Device> devices() {
    KernelCheck.checkRequiredDevices();
    return Devices.all();
  }

  /** A small model with every kind of state: dense and conv parameters, batch norm's running statistics. */
  private static Sequential model() {
    return Sequential.of(Shape.of(1, 6, 6), Layer.conv(3, 3), Layer.batchNorm(), Layer.relu(), Layer.flatten(), Layer.dense(8), Layer.relu(),
        Layer.dense(4)).initialize(3);
  }

  @Test
  void gradientStepThenParameterUpdateEqualsTheTrainingStep() {
    Dataset data = TrainingStepTest.labelled(96, 36, 4, 1);
    int[] order = new int[96];
    for (int i = 0; i < 96; i++) order[i] = (i * 37) % 96;
    for (Optimizer opt : List.<Optimizer>of(Optimizer.sgd(0.05f), Optimizer.momentum(0.05f, 0.9f), Optimizer.adam(1e-2f).withWeightDecay(1e-3f)))
      for (Device d : devices()) {
        Sequential whole = model(), split = model();
        float[] wholeLoss = new float[6], splitLoss = new float[6];
        try (TrainingStep step = whole.trainingStep(data, 16, Loss.SOFTMAX_CROSS_ENTROPY, opt, d)) {
          for (int s = 0; s < 6; s++) wholeLoss[s] = step.run(order, s * 16, s == 5 ? 11 : 16);
          step.pullParameters();
        }
        try (GradientStep grad = split.gradientStep(data, 16, Loss.SOFTMAX_CROSS_ENTROPY, d, 0);
             ParameterUpdate update = split.parameterUpdate(opt, d)) {
          for (int s = 0; s < 6; s++) {
            splitLoss[s] = grad.run(order, s * 16, s == 5 ? 11 : 16);
            update.apply(grad.gradients());
          }
        }
        String what = opt + " on " + d.id();
        assertArrayEquals(wholeLoss, splitLoss, what + ": losses");
        assertArrayEquals(whole.parameters().toArray(), split.parameters().toArray(), what + ": parameters");
        assertArrayEquals(whole.state().toArray(), split.state().toArray(), what + ": batch norm's running statistics");
      }
  }

  @Test
  void aTrainingStepContinuesFromParametersAndOptimizerStateSetOnTheHost() {
    Dataset data = TrainingStepTest.labelled(64, 36, 4, 2);
    int[] order = new int[64];
    for (int i = 0; i < 64; i++) order[i] = i;
    for (Device d : devices()) {
      // Four steps in one go, against two steps, then a fresh step given the first's parameters and Adam's state, then two more.
      Sequential straight = model(), first = model(), second = model();
      try (TrainingStep step = straight.trainingStep(data, 16, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f), d)) {
        for (int s = 0; s < 4; s++) step.run(order, s * 16, 16);
        step.pullParameters();
      }
      List<float[]> adam = new ArrayList<>();
      try (TrainingStep step = first.trainingStep(data, 16, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f), d)) {
        for (int s = 0; s < 2; s++) step.run(order, s * 16, 16);
        step.pullParameters();
        step.pullOptimizerState();
        for (FloatArray a : step.optimizerState()) adam.add(a.toArray());
      }
      assertEquals(3, adam.size(), "Adam keeps m, v and its β powers");
      try (TrainingStep step = second.trainingStep(data, 16, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f), d)) {
        step.run(order, 0, 16);   // the step's own state on the device first, then replaced from the host
        second.parameters().getSegment().copyFrom(first.parameters().getSegment());
        second.state().getSegment().copyFrom(first.state().getSegment());
        step.pushParameters();
        for (int v = 0; v < 3; v++) step.optimizerState().get(v).getSegment().copyFrom(FloatArray.fromArray(adam.get(v)).getSegment());
        step.pushOptimizerState();
        for (int s = 2; s < 4; s++) step.run(order, s * 16, 16);
        step.pullParameters();
      }
      assertArrayEquals(straight.parameters().toArray(), second.parameters().toArray(), d.id() + ": parameters");
      assertArrayEquals(straight.state().toArray(), second.state().toArray(), d.id() + ": state");
    }
  }

  @Test
  void aParameterUpdateRefusesGradientsOfAnotherModel() {
    Sequential m = model();
    try (ParameterUpdate update = m.parameterUpdate(Optimizer.sgd(0.1f), Devices.jvm())) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> update.apply(new FloatArray(5)));
      assertEquals("5 gradients for a model of " + m.parameterCount() + " parameters", e.getMessage());
    }
  }

  @Test
  void weightsTravelAsBytes() {
    Sequential m = model();
    Sequential back = Weights.fromBytes(Weights.toBytes(m));
    assertEquals(m.toString(), back.toString());
    assertArrayEquals(m.parameters().toArray(), back.parameters().toArray());
    assertArrayEquals(m.state().toArray(), back.state().toArray());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Weights.fromBytes(new byte[] {1, 2, 3}));
    assertEquals("model bytes: truncated weight file", e.getMessage());
  }
}
