package wl;

import java.util.SplittableRandom;

/**
 * Many distinct deep stacks, for benchmarks of the commands that carry whole
 * stacks (folded, flame, print --json): each thread recurses through six
 * methods in a random order to a random depth of 50 to 400 frames, spins a
 * little at the bottom and starts again, so nearly every sample has a stack
 * of its own.
 *
 *     java wl.DeepWorkload [seconds] [threads]
 *
 * tests/bench/make-deep-recording.sh records it with JDK 25 (CPU-time and
 * execution samples, small chunks so that there are several).
 */
public final class DeepWorkload {
    private static volatile long sink;

    private DeepWorkload() {
    }

    private static long step(SplittableRandom r, int depth, long acc) {
        if (depth == 0) {
            for (int i = 0; i < 20_000; i++)
                acc = acc * 6364136223846793005L + i;
            return acc;
        }
        switch (r.nextInt(6)) {
        case 0: return alpha(r, depth - 1, acc);
        case 1: return beta(r, depth - 1, acc + 1);
        case 2: return gamma(r, depth - 1, acc ^ 2);
        case 3: return delta(r, depth - 1, acc * 3);
        case 4: return epsilon(r, depth - 1, acc - 4);
        default: return zeta(r, depth - 1, acc + depth);
        }
    }

    private static long alpha(SplittableRandom r, int d, long a) { return step(r, d, a) + 1; }
    private static long beta(SplittableRandom r, int d, long a) { return step(r, d, a) + 2; }
    private static long gamma(SplittableRandom r, int d, long a) { return step(r, d, a) + 3; }
    private static long delta(SplittableRandom r, int d, long a) { return step(r, d, a) + 4; }
    private static long epsilon(SplittableRandom r, int d, long a) { return step(r, d, a) + 5; }
    private static long zeta(SplittableRandom r, int d, long a) { return step(r, d, a) + 6; }

    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 30;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final long seed = 42 + t;
            ts[t] = new Thread(() -> {
                SplittableRandom r = new SplittableRandom(seed);
                while (System.nanoTime() < end)
                    sink += step(r, 50 + r.nextInt(351), 0);
            }, "deep-" + t);
            ts[t].start();
        }
        for (Thread t : ts)
            t.join();
    }
}
