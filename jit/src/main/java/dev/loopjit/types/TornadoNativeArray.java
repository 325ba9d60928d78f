// TornadoVM's common type of the off-heap arrays, so that programs declaring it compile after the import rename: every NativeArray is one.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;

/**
 * TornadoVM's {@code TornadoNativeArray}: what every off-heap array ({@link NativeArray}) is, with
 * TornadoVM's getters. LoopJIT's arrays have no header before their elements, so
 * {@link #ARRAY_HEADER} is 0 and the "with header" getters give the elements' memory.
 */
public sealed interface TornadoNativeArray permits NativeArray {
  /** Bytes before the elements: none in LoopJIT's arrays (TornadoVM's have an object header there). */
  long ARRAY_HEADER = 0;

  /** Number of elements. */
  int getSize();

  /** The elements' memory. */
  MemorySegment getSegment();

  /** The memory with the header: {@link #getSegment()}, as there is none. */
  MemorySegment getSegmentWithHeader();

  /** Bytes of the elements. */
  long getNumBytesOfSegment();

  /** Bytes with the header: {@link #getNumBytesOfSegment()}. */
  long getNumBytesOfSegmentWithHeader();

  /** Bytes of the elements, as TornadoVM names it. */
  long getNumBytesWithoutHeader();

  /** Bytes per element. */
  int getElementSize();

  /** Sets every element to zero. */
  void clear();
}
