// FollowWorkload - the JVM that tests/follow follows: threads burn CPU in a
// method with a name found nowhere else (burnFollowHot), another
// allocates, for the seconds given (default 4), then the JVM exits and
// closes its recording. Usage: FollowWorkload [SECONDS [BURNERS]] (one
// burner, the main thread, by default). Compiled into the build tree.
import java.util.ArrayList;
import java.util.List;

public class FollowWorkload {
    static volatile long sink;

    static long burnFollowHot(long n) {
        long x = 17;
        for (long i = 0; i < n; i++)
            x = x * 6364136223846793005L + (i ^ (x >>> 29));
        return x;
    }

    static void allocate(long until) {
        List<byte[]> keep = new ArrayList<>();
        while (System.currentTimeMillis() < until) {
            keep.add(new byte[4096]);
            if (keep.size() > 2000)
                keep.clear();
        }
        sink += keep.size();
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 4;
        int burners = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        long until = System.currentTimeMillis() + seconds * 1000;
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> allocate(until), "follow-allocator"));
        for (int i = 1; i < burners; i++)
            threads.add(new Thread(() -> burn(until), "follow-burner-" + i));
        for (Thread t : threads)
            t.start();
        burn(until);
        for (Thread t : threads)
            t.join();
    }

    static void burn(long until) {
        while (System.currentTimeMillis() < until)
            sink += burnFollowHot(200_000);
    }
}
