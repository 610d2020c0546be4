package wl;

/**
 * Nothing wrong on purpose: one thread does a little steady work, pausing
 * between rounds, for the quiet recording of `jfrtool report`'s tests.
 *
 *     java wl.QuietWorkload [seconds]
 */
public final class QuietWorkload {
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 2;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            long h = 17;
            for (int i = 0; i < 200_000; i++)
                h = 31 * h + i;
            sink += h;
            Thread.sleep(10);
        }
        System.out.println(sink);
    }
}
