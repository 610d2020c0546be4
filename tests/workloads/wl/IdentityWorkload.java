package wl;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Things that have one name but are not one thing, for the views that
 * group by identity (doc/views.md): two unnamed threads (virtual threads
 * where the JVM has them, platform threads named "" before JDK 21), two
 * platform threads both named "worker", and the class wl.Twin (with its
 * error wl.TwinError) defined by two instances of one class loader, so
 * that two classes, two class loaders and two sets of methods share one
 * name. Each pair does different amounts of work, so the JDK's rows differ.
 *
 *     java wl.IdentityWorkload [seconds]
 */
public final class IdentityWorkload {
    private static volatile boolean running = true;
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        Object[] twins = {newTwin(), newTwin()};
        List<Thread> threads = new ArrayList<>();
        threads.add(unnamed(() -> allocate(512)));
        threads.add(unnamed(() -> allocate(128)));
        /* both workers take turns on each twin's monitor */
        for (int i = 0; i < 2; i++) {
            final int share = i + 1;
            Thread t = new Thread(() -> work(twins, share), "worker");
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        Thread.sleep(seconds * 1000);
        running = false;
        for (Thread t : threads)
            t.join(5000);
        System.out.println("done " + (sink & 1));
    }

    /* A thread without a name: virtual (JDK 21+, found by reflection so
     * that this compiles for Java 17), else a platform thread named "". */
    private static Thread unnamed(Runnable body) throws Exception {
        try {
            Method m = Thread.class.getMethod("startVirtualThread", Runnable.class);
            return (Thread) m.invoke(null, body);
        } catch (NoSuchMethodException e) {
            Thread t = new Thread(body, "");
            t.setDaemon(true);
            t.start();
            return t;
        }
    }

    /* arrays of `size` longs, a few kept: the first thread allocates more */
    private static void allocate(int size) {
        long[][] keep = new long[64][];
        for (long i = 0; running; i++) {
            keep[(int) (i & 63)] = new long[size];
            sink += keep[(int) (i * 7 & 63)] == null ? 0 : 1;
        }
    }

    /* Twin.work on both twins, `share` rounds each time: the second worker
     * does twice the first one's work. */
    private static void work(Object[] twins, int share) {
        try {
            Method[] work = new Method[twins.length];
            for (int i = 0; i < twins.length; i++)
                work[i] = twins[i].getClass().getMethod("work", int.class);
            while (running) {
                for (int i = 0; i < twins.length; i++)
                    sink += (Long) work[i].invoke(twins[i], share * (i + 1));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object newTwin() throws Exception {
        return new TwinLoader().loadClass("wl.Twin").getDeclaredConstructor().newInstance();
    }

    /** Defines wl.Twin and wl.TwinError itself (child first): each
     * instance makes classes of its own under those names. */
    static final class TwinLoader extends ClassLoader {
        TwinLoader() {
            super(IdentityWorkload.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("wl.Twin"))
                return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    String file = "/" + name.replace('.', '/') + ".class";
                    try (InputStream in = IdentityWorkload.class.getResourceAsStream(file)) {
                        if (in == null)
                            throw new ClassNotFoundException(name);
                        byte[] b = in.readAllBytes();
                        c = defineClass(name, b, 0, b.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve)
                    resolveClass(c);
                return c;
            }
        }
    }
}
