package wl;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * Thousands of virtual threads, for the report's Threads section (lanes
 * grouped per thread group, drawn within its time budget): each one
 * sleeps once (jdk.ThreadSleep), waits for one of a few permits
 * (jdk.ThreadPark when it has to wait) and hashes a little. Half of them
 * are named "vt-N", half unnamed, as an executor makes them. Two platform
 * threads hash beside them, so the recording also has platform lanes.
 *
 *     java wl.VirtualThreadsWorkload [threads] [sleep-ms]
 *
 * Needs Java 21 (virtual threads); compiled with --release 21.
 */
public final class VirtualThreadsWorkload {
    private static final Semaphore PERMITS = new Semaphore(8);
    private static volatile long sink;

    private VirtualThreadsWorkload() {
    }

    private static void hash(int rounds) {
        long h = 1125899906842597L;
        for (int i = 0; i < rounds; i++)
            h = 31 * h + (i ^ (h >>> 7));
        sink += h;
    }

    private static void task(int sleepMs) {
        try {
            Thread.sleep(sleepMs);
            PERMITS.acquire();
            try {
                hash(200_000);
                Thread.sleep(2);
            } finally {
                PERMITS.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int sleepMs = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        List<Thread> threads = new ArrayList<>(n + 2);
        for (int p = 0; p < 2; p++) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < 400; i++)
                    hash(100_000);
            }, "platform-" + p);
            t.start();
            threads.add(t);
        }
        for (int i = 0; i < n; i++) {
            Thread.Builder b = i % 2 == 0 ? Thread.ofVirtual().name("vt-" + i) : Thread.ofVirtual();
            threads.add(b.start(() -> task(sleepMs)));
        }
        for (Thread t : threads)
            t.join();
    }
}
