// Reads of a VolumeShort2 as a signed distance field (TornadoVM's VolumeOps, KinectFusion's volume): voxels, trilinear samples, gradients; kernel helpers.
package dev.loopjit.types;

/**
 * A {@link VolumeShort2} as a field of values in [-1, 1]: each voxel's first short scaled by
 * {@code 1 / 32766}. {@code dim} is the volume's size in world units along x, y, z, so a point
 * {@code p} falls at voxel coordinates {@code p · (X, Y, Z) / dim - 0.5}. Every method compiles in
 * kernels (called from a {@code @Parallel} loop) and computes there what it computes here.
 */
public final class VolumeOps {
  private VolumeOps() {}

  /** The field's value at voxel {@code (x, y, z)}: its first short over 32766. */
  public static float vs(VolumeShort2 cube, int x, int y, int z) {
    return cube.get(x, y, z).getX() * 0.00003051944088f;
  }

  /** {@link #vs(VolumeShort2, int, int, int)} with the voxel first. */
  public static float vs1(int x, int y, int z, VolumeShort2 cube) {
    return vs(cube, x, y, z);
  }

  /** The field at {@code point}, trilinear between the eight voxels around it (clamped at the volume's faces). */
  public static float interp(VolumeShort2 volume, Float3 dim, Float3 point) {
    float px = point.getX() * volume.X() / dim.getX() - 0.5f, py = point.getY() * volume.Y() / dim.getY() - 0.5f;
    float pz = point.getZ() * volume.Z() / dim.getZ() - 0.5f;
    float bx = (float) Math.floor(px), by = (float) Math.floor(py), bz = (float) Math.floor(pz);
    float fx = px - bx, fy = py - by, fz = pz - bz;
    int x0 = clamp((int) bx, volume.X()), x1 = clamp((int) bx + 1, volume.X()), y0 = clamp((int) by, volume.Y()), y1 = clamp((int) by + 1, volume.Y());
    int z0 = clamp((int) bz, volume.Z()), z1 = clamp((int) bz + 1, volume.Z());
    float near = (vs(volume, x0, y0, z0) * (1 - fx) + vs(volume, x1, y0, z0) * fx) * (1 - fy)
        + (vs(volume, x0, y1, z0) * (1 - fx) + vs(volume, x1, y1, z0) * fx) * fy;
    float far = (vs(volume, x0, y0, z1) * (1 - fx) + vs(volume, x1, y0, z1) * fx) * (1 - fy)
        + (vs(volume, x0, y1, z1) * (1 - fx) + vs(volume, x1, y1, z1) * fx) * fy;
    return near * (1 - fz) + far * fz;
  }

  /**
   * The gradient at {@code point} of the field {@link #interp} gives: the derivative of the trilinear
   * blend of the same eight voxels along x, y and z, per world unit.
   */
  public static Float3 grad(VolumeShort2 volume, Float3 dim, Float3 point) {
    float px = point.getX() * volume.X() / dim.getX() - 0.5f, py = point.getY() * volume.Y() / dim.getY() - 0.5f;
    float pz = point.getZ() * volume.Z() / dim.getZ() - 0.5f;
    float bx = (float) Math.floor(px), by = (float) Math.floor(py), bz = (float) Math.floor(pz);
    float fx = px - bx, fy = py - by, fz = pz - bz;
    int x0 = clamp((int) bx, volume.X()), x1 = clamp((int) bx + 1, volume.X()), y0 = clamp((int) by, volume.Y()), y1 = clamp((int) by + 1, volume.Y());
    int z0 = clamp((int) bz, volume.Z()), z1 = clamp((int) bz + 1, volume.Z());
    float v000 = vs(volume, x0, y0, z0), v100 = vs(volume, x1, y0, z0), v010 = vs(volume, x0, y1, z0), v110 = vs(volume, x1, y1, z0);
    float v001 = vs(volume, x0, y0, z1), v101 = vs(volume, x1, y0, z1), v011 = vs(volume, x0, y1, z1), v111 = vs(volume, x1, y1, z1);
    float gx = ((v100 - v000) * (1 - fy) + (v110 - v010) * fy) * (1 - fz) + ((v101 - v001) * (1 - fy) + (v111 - v011) * fy) * fz;
    float gy = ((v010 - v000) * (1 - fx) + (v110 - v100) * fx) * (1 - fz) + ((v011 - v001) * (1 - fx) + (v111 - v101) * fx) * fz;
    float gz = ((v001 - v000) * (1 - fx) + (v101 - v100) * fx) * (1 - fy) + ((v011 - v010) * (1 - fx) + (v111 - v110) * fx) * fy;
    return new Float3(gx * volume.X() / dim.getX(), gy * volume.Y() / dim.getY(), gz * volume.Z() / dim.getZ());
  }

  private static int clamp(int i, int size) {
    return Math.min(Math.max(i, 0), size - 1);
  }
}
