import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.AbstractMongoBackend;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.BsonTimestamp;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.exception.KeyConstraintError;
import de.bwaldvogel.mongo.oplog.Oplog;
import org.h2.mvstore.MVStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The local MongoDB stand-in: mongo-java-server on loopback, run by tools/infra/lib/mongo.sh in
 * Java's source-file mode (java -cp "lib/*" MongoLauncher.java memory|h2 HOST PORT [H2_FILE]).
 *
 * memory: nothing survives a stop (tests, benchmarks). h2: documents live in one H2 MVStore file
 * and survive a stop; the shutdown hook closes the store so the last writes are on disk.
 * The oplog is on either way (change streams need it) and capped, as MongoDB's is (OplogCap).
 *
 * Both backends serve queries through UniqueKeyLookup (below): a filter that pins every key of a
 * unique index is answered from that index, as MongoDB does (docs/data-layer.md, "The local
 * server's planner"). Both answer copies of the documents they hold (Snapshots, below).
 */
public class MongoLauncher {
    public static void main(String[] args) {
        if (args.length < 3 || (args[0].equals("h2") && args.length < 4)) {
            System.err.println("usage: MongoLauncher memory|h2 HOST PORT [H2_FILE]");
            System.exit(2);
        }
        MongoBackend backend = switch (args[0]) {
            case "memory" -> new MemoryBackend() {
                @Override
                public MemoryDatabase openOrCreateDatabase(String databaseName) {
                    return new MemoryDatabase(databaseName, getCursorRegistry()) {
                        @Override
                        protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
                            return new MemoryCollection(this, collectionName, options, cursorRegistry) {
                                private final Snapshots snapshots = new Snapshots(collectionName);

                                @Override
                                protected QueryResult createQueryResult(List<Document> matched, int batchSize) {
                                    return super.createQueryResult(snapshots.answer(matched), batchSize);
                                }

                                @Override
                                public synchronized Document findAndModify(Document command) {
                                    return Snapshots.withCopiedValue(snapshots.modifying(() -> super.findAndModify(command)));
                                }

                                @Override
                                public synchronized Document updateDocuments(Document selector, Document update, ArrayFilters arrayFilters, boolean multi, boolean upsert, Oplog oplog) {
                                    return snapshots.modifying(() -> super.updateDocuments(selector, update, arrayFilters, multi, upsert, oplog));
                                }

                                @Override
                                public synchronized int deleteDocuments(Document selector, int limit, Oplog oplog) {
                                    return snapshots.modifying(() -> super.deleteDocuments(selector, limit, oplog));
                                }
                            };
                        }

                        @Override
                        protected Index<Integer> openOrCreateUniqueIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
                            return new UniqueKeyLookup<>(super.openOrCreateUniqueIndex(collection, name, keys, sparse), name, keys, sparse);
                        }
                    };
                }

                @Override
                protected Oplog createOplog() {
                    return OplogCap.keep(this, super.createOplog());
                }
            };
            case "h2" -> new H2Backend(args[3]) {
                @Override
                protected MongoDatabase openOrCreateDatabase(String databaseName) {
                    MVStore store = getMvStore();
                    return new H2Database(databaseName, store, getCursorRegistry()) {
                        @Override
                        protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
                            // H2Database's own map names (mongo-java-server 1.47.0): stored collections open as before.
                            // The same four overrides as the memory backend's collection: each must call its own
                            // superclass, so Java cannot share them; what they do is in Snapshots.
                            String namespace = getFullCollectionNamespace(collectionName);
                            return new H2Collection(this, collectionName, options, store.openMap("databases." + namespace), store.openMap("meta." + namespace), cursorRegistry) {
                                private final Snapshots snapshots = new Snapshots(collectionName);

                                @Override
                                protected QueryResult createQueryResult(List<Document> matched, int batchSize) {
                                    return super.createQueryResult(snapshots.answer(matched), batchSize);
                                }

                                @Override
                                public synchronized Document findAndModify(Document command) {
                                    return Snapshots.withCopiedValue(snapshots.modifying(() -> super.findAndModify(command)));
                                }

                                @Override
                                public synchronized Document updateDocuments(Document selector, Document update, ArrayFilters arrayFilters, boolean multi, boolean upsert, Oplog oplog) {
                                    return snapshots.modifying(() -> super.updateDocuments(selector, update, arrayFilters, multi, upsert, oplog));
                                }

                                @Override
                                public synchronized int deleteDocuments(Document selector, int limit, Oplog oplog) {
                                    return snapshots.modifying(() -> super.deleteDocuments(selector, limit, oplog));
                                }
                            };
                        }

                        @Override
                        protected Index<Object> openOrCreateUniqueIndex(String collection, String name, List<IndexKey> keys, boolean sparse) {
                            return new UniqueKeyLookup<>(super.openOrCreateUniqueIndex(collection, name, keys, sparse), name, keys, sparse);
                        }
                    };
                }

                @Override
                protected Oplog createOplog() {
                    return OplogCap.keep(this, super.createOplog());
                }
            };
            default -> throw new IllegalArgumentException("unknown backend " + args[0] + " (memory or h2)");
        };
        MongoServer server = new MongoServer(backend);
        server.enableOplog();
        server.bind(args[1], Integer.parseInt(args[2]));
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "mongo-shutdown"));
        System.out.println("mongo-java-server (" + args[0] + " backend) listening on " + args[1] + ":" + args[2]);
    }
}

/**
 * A unique index that also serves a filter pinning each of its keys to one plain value, whatever
 * else the filter holds, as MongoDB's planner does: `{_id, business_id, status}` is one lookup in
 * the `_id` index, then the whole filter is matched on the document found. One of the keys may
 * instead be an `$in` of plain values (`{_id: {$in: [...]}, business_id}`, an update of many
 * documents by id): one lookup per value. mongo-java-server uses a unique index only when the
 * filter's keys are exactly the index's keys (`$in` only on a single-key index) and scans the
 * collection for anything else, so every conditional update by id cost a scan. Answers do not
 * change: the collection still matches the whole filter on every document the index yields, and a
 * filter that pins the keys to one value (or to one of the `$in` values) can only match the
 * documents holding them. Everything else is the backend's own index.
 */
final class UniqueKeyLookup<P> extends Index<P> {
    private final Index<P> index;

    UniqueKeyLookup(Index<P> index, String name, List<IndexKey> keys, boolean sparse) {
        super(name, keys, sparse);
        this.index = index;
    }

    @Override
    public boolean canHandle(Document query) {
        return index.canHandle(query) || pinsEveryKey(query);
    }

    /** Every key a plain value, but for at most one `$in` of plain values. */
    private boolean pinsEveryKey(Document query) {
        int lists = 0;
        for (String key : keys()) {
            Object value = query.get(key);
            if (isPlain(value)) continue;
            if (inValues(value) == null || ++lists > 1) return false;
        }
        return true;
    }

    /** Operators, sub-documents and arrays have other meanings (and null also matches a missing field). */
    private static boolean isPlain(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean
            || value instanceof UUID || value instanceof ObjectId || value instanceof Instant;
    }

    /** The values of `{$in: [...]}` when that is all the condition is and each value is plain; null otherwise. */
    private static Collection<?> inValues(Object condition) {
        if (!(condition instanceof Document document) || document.size() != 1 || !(document.get("$in") instanceof Collection<?> values)) return null;
        for (Object value : values) if (!isPlain(value)) return null;
        return values;
    }

    @Override
    public Iterable<P> getPositions(Document query) {
        if (index.canHandle(query)) return index.getPositions(query);
        for (String key : keys()) {
            Collection<?> values = inValues(query.get(key));
            if (values == null) continue;
            Set<P> positions = new LinkedHashSet<>();
            for (Object value : values) {
                Document pinned = new Document(query);
                pinned.put(key, value);
                for (P position : index.getPositions(pinned)) positions.add(position);
            }
            return positions;
        }
        return index.getPositions(query);
    }
    @Override public P getPosition(Document document) { return index.getPosition(document); }
    @Override public void checkAdd(Document document, MongoCollection<P> collection) { index.checkAdd(document, collection); }
    @Override public void add(Document document, P position, MongoCollection<P> collection) { index.add(document, position, collection); }
    @Override public P remove(Document document) { return index.remove(document); }
    @Override public long getCount() { return index.getCount(); }
    @Override public boolean isEmpty() { return index.isEmpty(); }
    @Override public long getDataSize() { return index.getDataSize(); }
    @Override public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<P> collection) { index.checkUpdate(oldDocument, newDocument, collection); }
    @Override public void updateInPlace(Document oldDocument, Document newDocument, P position, MongoCollection<P> collection) throws KeyConstraintError { index.updateInPlace(oldDocument, newDocument, position, collection); }
    @Override public void drop() { index.drop(); }
    @Override public boolean isUnique() { return index.isUnique(); }
}

/**
 * Answers that are copies of the stored documents, taken while the collection's lock is held.
 * Both backends update a stored document in place and answered a query or a findAndModify with
 * the stored document itself, encoded after the lock was released: a concurrent update of the
 * same document could show half applied in the answer (measured: 16 writers `$inc`ing 30 fields
 * of one document together and 16 readers, 8 s: 1 torn find and 10 torn findAndModify answers in
 * about 25,000 of each on the memory backend, 5 and 8 on H2). MongoDB answers each from one
 * state. The collection's own update, findAndModify and delete find the documents they change
 * through the same query path, and must get the stored ones: `modifying` marks that (the
 * collection's methods are synchronized, so a plain field guarded by its lock is enough).
 */
final class Snapshots {
    private final boolean appendOnly;
    private boolean modifying;

    Snapshots(String collectionName) {
        // The oplog's entries are written once and never changed in place (OplogCap reads them all).
        this.appendOnly = collectionName.equals("oplog.rs");
    }

    List<Document> answer(List<Document> matched) {
        if (modifying || appendOnly) return matched;
        List<Document> copies = new ArrayList<>(matched.size());
        for (Document document : matched) copies.add(document.cloneDeeply());
        return copies;
    }

    <T> T modifying(Supplier<T> change) {
        boolean outer = modifying;
        modifying = true;
        try {
            return change.get();
        } finally {
            modifying = outer;
        }
    }

    /** A findAndModify answer whose `value` is a copy. */
    static Document withCopiedValue(Document answer) {
        if (answer.get("value") instanceof Document value) answer.put("value", value.cloneDeeply());
        return answer;
    }
}

/**
 * Keeps the oplog to its newest entries, as MongoDB keeps its oplog to a fixed size. The server's
 * own oplog is a collection that every insert (with a whole copy of the document), update and
 * delete appends to and nothing ever trims: the memory backend's heap and the H2 file grew with
 * every write ever made, and a change stream reads the whole collection on each poll. A daemon
 * thread checks the entry count every 2 s; above CMSG_MONGO_OPLOG_MAX_ENTRIES (default 100,000)
 * it removes the oldest until half that many are left, so a trim (two passes over the entries)
 * comes once per max/2 writes. A change stream resuming from an entry trimmed away misses what
 * was trimmed, as on MongoDB when its oplog has rolled over.
 */
final class OplogCap {
    private static final String TIMESTAMP = "ts";

    private OplogCap() {}

    /** Starts trimming the backend's oplog collection and answers the oplog unchanged. */
    static Oplog keep(AbstractMongoBackend backend, Oplog oplog) {
        String configured = System.getenv("CMSG_MONGO_OPLOG_MAX_ENTRIES");
        int maxEntries = configured == null || configured.isBlank() ? 100_000 : Integer.parseInt(configured.trim());
        if (maxEntries < 2) throw new IllegalArgumentException("CMSG_MONGO_OPLOG_MAX_ENTRIES must be at least 2, got " + configured);
        @SuppressWarnings("unchecked")
        MongoCollection<Document> entries = (MongoCollection<Document>) backend.resolveDatabase("local").resolveCollection("oplog.rs", true);
        ScheduledExecutorService trimmer = Executors.newSingleThreadScheduledExecutor((task) -> {
            Thread thread = new Thread(task, "oplog-trim");
            thread.setDaemon(true);
            return thread;
        });
        trimmer.scheduleWithFixedDelay(() -> {
            try {
                trim(entries, maxEntries);
            } catch (RuntimeException error) {
                System.err.println("oplog trim failed: " + error);
            }
        }, 2, 2, TimeUnit.SECONDS);
        return oplog;
    }

    private static void trim(MongoCollection<Document> entries, int maxEntries) {
        if (entries.count() <= maxEntries) return;
        long[] times = entries.queryAllAsStream().mapToLong((entry) -> ((BsonTimestamp) entry.get(TIMESTAMP)).getValue()).sorted().toArray();
        int removed = times.length - maxEntries / 2;
        if (removed <= 0) return;
        // Timestamps are unique and increasing: everything before the oldest kept entry goes.
        entries.deleteDocuments(new Document(TIMESTAMP, new Document("$lt", new BsonTimestamp(times[removed]))), 0);
    }
}
