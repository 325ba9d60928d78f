// A KernelCheckExtension for the harness's own tests: records every kernel it is given, so ServiceLoader discovery is tested.
package dev.loopjit.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Named in this module's test {@code META-INF/services}; its emitter passes every kernel and remembers its name. */
public final class RecordingExtension implements KernelCheckExtension {
  static final List<String> SEEN = new CopyOnWriteArrayList<>();

  @Override
  public List<KernelCheck.OfflineEmitter> offlineEmitters() {
    return List.of(new KernelCheck.OfflineEmitter("recording", k -> {
      SEEN.add(k.name() + ":" + k.method().getName() + "/" + k.args().size());
      return null;
    }));
  }
}
