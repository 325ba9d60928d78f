// The kernels behind collections' own methods as tasks (image::fill): static methods a device compiles, the collection first.
package dev.loopjit.types;

/**
 * A task graph given a collection's method, {@code .task("t0", image::fill, 1f)}, runs the method of
 * the same name here whose first parameter is the collection ({@code fill(image, 1f)}): a kernel over
 * the collection's pixels, where the method itself is host code. Each computes what the method does.
 */
public final class CollectionKernels {
  private CollectionKernels() {}

  /** {@link ImageFloat#fill(float)}: every float of every pixel set to {@code value}. */
  public static void fill(ImageFloat image, float value) {
    for (@LoopParallel int y = 0; y < image.Y(); y++)
      for (@LoopParallel int x = 0; x < image.X(); x++) image.set(x, y, value);
  }

  /** {@link ImageFloat3#fill(float)}: every float of every pixel set to {@code value}. */
  public static void fill(ImageFloat3 image, float value) {
    for (@LoopParallel int y = 0; y < image.Y(); y++)
      for (@LoopParallel int x = 0; x < image.X(); x++) image.set(x, y, new Float3(value, value, value));
  }

  /** {@link ImageFloat4#fill(float)}: every float of every pixel set to {@code value}. */
  public static void fill(ImageFloat4 image, float value) {
    for (@LoopParallel int y = 0; y < image.Y(); y++)
      for (@LoopParallel int x = 0; x < image.X(); x++) image.set(x, y, new Float4(value, value, value, value));
  }

  /** {@link ImageFloat8#fill(float)}: every float of every pixel set to {@code value}. */
  public static void fill(ImageFloat8 image, float value) {
    for (@LoopParallel int y = 0; y < image.Y(); y++)
      for (@LoopParallel int x = 0; x < image.X(); x++) image.set(x, y, new Float8(value, value, value, value, value, value, value, value));
  }

  /** {@link ImageByte3#fill(byte)}: every byte of every pixel set to {@code value}. */
  public static void fill(ImageByte3 image, byte value) {
    for (@LoopParallel int y = 0; y < image.Y(); y++)
      for (@LoopParallel int x = 0; x < image.X(); x++) image.set(x, y, new Byte3(value, value, value));
  }

  /** {@link ImageByte4#fill(byte)}: every byte of every pixel set to {@code value}. */
  public static void fill(ImageByte4 image, byte value) {
    for (@LoopParallel int y = 0; y < image.Y(); y++)
      for (@LoopParallel int x = 0; x < image.X(); x++) image.set(x, y, new Byte4(value, value, value, value));
  }

  /** {@link VolumeShort2#fill(short)}: both shorts of every voxel set to {@code value}. */
  public static void fill(VolumeShort2 volume, short value) {
    for (@LoopParallel int z = 0; z < volume.Z(); z++)
      for (@LoopParallel int y = 0; y < volume.Y(); y++)
        for (@LoopParallel int x = 0; x < volume.X(); x++) volume.set(x, y, z, new Short2(value, value));
  }

  /** {@link Matrix4x4Float#fill(float)}: every element set to {@code value}. */
  public static void fill(Matrix4x4Float matrix, float value) {
    for (@LoopParallel int k = 0; k < 16; k++) matrix.set(k, value);
  }
}
