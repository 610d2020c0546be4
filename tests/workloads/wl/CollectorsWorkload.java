package wl;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A little of everything for one collector to record: contended monitors,
 * a ReentrantLock with parking, allocation of up to 2 MB arrays (some kept
 * for a while), caught exceptions, file writes with fsync and reads,
 * loopback sockets served by virtual threads, 200 virtual threads that
 * sleep, and System.gc() every 1.5 s. Run it under each collector
 * (tests/workloads/make-gc-recordings.sh): the GC views differ by
 * collector. Arguments: seconds.
 */
public final class CollectorsWorkload {
    private static final Object LOCK = new Object();
    private static final List<byte[]> KEPT = new ArrayList<>();
    private static volatile long sink;

    private CollectorsWorkload() {
    }

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    private static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }

    private static void allocate(long end) {
        Random r = new Random(1);
        while (System.currentTimeMillis() < end) {
            byte[] b = new byte[r.nextInt(2_000_000) + 10];
            if (r.nextInt(50) == 0) {
                synchronized (KEPT) {
                    KEPT.add(b);
                    if (KEPT.size() > 40) {
                        KEPT.remove(0);
                    }
                }
            }
            sink += ("x" + r.nextInt()).hashCode();
            try {
                if (r.nextInt(10) == 0) {
                    throw new IllegalStateException("boom " + r.nextInt(3));
                }
            } catch (IllegalStateException e) {
                sink++;
            }
        }
    }

    private static void fileIo(long end) {
        try {
            Path p = Files.createTempFile("collectors", ".dat");
            byte[] data = new byte[64 * 1024];
            while (System.currentTimeMillis() < end) {
                try (FileOutputStream out = new FileOutputStream(p.toFile())) {
                    for (int i = 0; i < 20; i++) {
                        out.write(data);
                    }
                    out.getFD().sync();
                }
                try (FileInputStream in = new FileInputStream(p.toFile())) {
                    while (in.read(data) > 0) {
                        sink++;
                    }
                }
                Thread.sleep(30);
            }
            Files.delete(p);
        } catch (IOException | InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    private static void echo(Socket c) {
        try (c) {
            InputStream in = c.getInputStream();
            OutputStream out = c.getOutputStream();
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) > 0) {
                Thread.sleep(5);
                out.write(buf, 0, n);
            }
        } catch (IOException | InterruptedException e) {
            sink++;
        }
    }

    public static void main(String[] args) throws Exception {
        long end = System.currentTimeMillis() + Long.parseLong(args[0]) * 1000;
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            threads.add(start("contender-" + i, () -> {
                while (System.currentTimeMillis() < end) {
                    synchronized (LOCK) {
                        sink += fib(22);
                    }
                }
            }));
        }
        threads.add(start("allocator", () -> allocate(end)));
        threads.add(start("file-io", () -> fileIo(end)));
        ServerSocket server = new ServerSocket(0);
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    Socket c = server.accept();
                    virtual.submit(() -> echo(c));
                }
            } catch (IOException e) {
                sink++;
            }
        }, "server");
        acceptor.setDaemon(true);
        acceptor.start();
        threads.add(start("client", () -> {
            while (System.currentTimeMillis() < end) {
                try (Socket s = new Socket("127.0.0.1", server.getLocalPort())) {
                    s.getOutputStream().write(new byte[1000]);
                    s.getInputStream().read(new byte[1000]);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }
        }));
        ReentrantLock lock = new ReentrantLock();
        for (int i = 0; i < 2; i++) {
            threads.add(start("parker-" + i, () -> {
                while (System.currentTimeMillis() < end) {
                    lock.lock();
                    try {
                        sink += fib(18);
                        LockSupport.parkNanos(100_000);
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        List<Future<?>> sleepers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            final int k = i;
            sleepers.add(virtual.submit(() -> {
                for (int j = 0; j < 20; j++) {
                    Thread.sleep(k % 7 + 1);
                    synchronized (LOCK) {
                        sink += j;
                    }
                }
                return null;
            }));
        }
        while (System.currentTimeMillis() < end) {
            Thread.sleep(1500);
            System.gc();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Future<?> f : sleepers) {
            f.get();
        }
        server.close();
        virtual.shutdown();
        System.out.println(sink);
    }
}
