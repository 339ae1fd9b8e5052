import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * The local MongoDB stand-in: mongo-java-server on loopback, run by tools/infra/lib/mongo.sh in
 * Java's source-file mode (java -cp "lib/*" MongoLauncher.java memory|h2 HOST PORT [H2_FILE]).
 *
 * memory: nothing survives a stop (tests, benchmarks). h2: documents live in one H2 MVStore file
 * and survive a stop; the shutdown hook closes the store so the last writes are on disk.
 * The oplog is on either way: change streams need it.
 */
public class MongoLauncher {
    public static void main(String[] args) {
        if (args.length < 3 || (args[0].equals("h2") && args.length < 4)) {
            System.err.println("usage: MongoLauncher memory|h2 HOST PORT [H2_FILE]");
            System.exit(2);
        }
        MongoBackend backend = switch (args[0]) {
            case "memory" -> new MemoryBackend();
            case "h2" -> new H2Backend(args[3]);
            default -> throw new IllegalArgumentException("unknown backend " + args[0] + " (memory or h2)");
        };
        MongoServer server = new MongoServer(backend);
        server.enableOplog();
        server.bind(args[1], Integer.parseInt(args[2]));
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "mongo-shutdown"));
        System.out.println("mongo-java-server (" + args[0] + " backend) listening on " + args[1] + ":" + args[2]);
    }
}
