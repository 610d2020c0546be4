package wl;

import java.util.ArrayList;
import java.util.List;

/**
 * A workload with three problems planted in it, for the findings of
 * `jfrtool report` (doc/report.md):
 *
 * <ul>
 * <li>a lock-contended section: four threads take turns on one monitor
 *     and hold it while they work (jdk.JavaMonitorEnter);
 * <li>an allocation burst: for about a second, one thread allocates
 *     short-lived arrays as fast as it can (jdk.ObjectAllocationSample);
 * <li>a growing static collection: REGISTRY keeps every "session" it is
 *     given and never lets one go (jdk.OldObjectSample, with
 *     path-to-gc-roots=true its chains end at SeededWorkload.REGISTRY).
 * </ul>
 *
 *     java wl.SeededWorkload [seconds]
 *
 * The phases run one after the other (contention, burst, growth through
 * all of it), so a timeline shows each at its own time.
 */
public final class SeededWorkload {
    /** The leak: entries are added and never removed. */
    static final List<Object> REGISTRY = new ArrayList<>();
    private static final Object CONTENDED = new Object();
    private static volatile boolean running = true;
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 4;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread grower = start("registry-grower", SeededWorkload::growRegistry);
        // phase 1: lock contention
        Thread[] workers = new Thread[4];
        for (int i = 0; i < workers.length; i++)
            workers[i] = start("contended-" + i, SeededWorkload::contend);
        Thread.sleep(Math.max(500, seconds * 1000 / 3));
        running = false;
        for (Thread t : workers)
            t.join();
        // phase 2: an allocation burst
        allocationBurst(Math.min(1000, seconds * 1000 / 3));
        // then idle until the end, the registry still growing
        while (System.nanoTime() < end)
            Thread.sleep(20);
        grower.interrupt();
        grower.join();
        System.out.println("registry " + REGISTRY.size() + " sink " + sink);
    }

    private static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }

    private static void contend() {
        while (running) {
            synchronized (CONTENDED) {
                sink += spin(200_000);
            }
        }
    }

    private static long spin(int n) {
        long h = 1125899906842597L;
        for (int i = 0; i < n; i++)
            h = 31 * h + i;
        return h;
    }

    private static void allocationBurst(long millis) {
        long stop = System.nanoTime() + millis * 1_000_000L;
        long total = 0;
        while (System.nanoTime() < stop) {
            byte[] b = new byte[64 * 1024];
            b[b.length - 1] = 1;
            total += b.length;
        }
        sink += total;
    }

    private static void growRegistry() {
        int i = 0;
        try {
            while (true) {
                REGISTRY.add(new byte[4096 + (i++ % 64)]);
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            // done
        }
    }
}
