/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.store.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.LockClient;
import dev.distlock.core.LockClientListener;
import dev.distlock.core.LockClientSettings;
import dev.distlock.store.LockStore;
import dev.distlock.store.FairQueueExtension;
import dev.distlock.store.LockStoreExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The lock semantics every {@link LockStore} must give a {@link DefaultLockClient}: one
 * abstract JUnit Jupiter suite that the tests of a store extend, as ShedLock's provider
 * integration test does. Its cases drive {@link DefaultLockClient}s on stores of the
 * subclass and check exclusion, waiting and timeouts, leases and renewal, loss, several
 * keys, one of several keys, fair locks, read-write locks, cohort hand-over, the operator
 * view, closing and failures; they are grouped in {@link Nested @Nested} classes by
 * topic. A group or case that needs an optional behaviour is skipped, with the reason,
 * when the store does not implement its {@link LockStoreExtension}
 * ({@link LockStore#extension(Class)}).
 * <p>
 * Every store of one test shares one backend, as application instances would: the suite
 * makes several clients, each on a store from {@link #newStore()}, and checks the backend
 * through the hooks. To test a store, extend this class and implement the hooks:
 * <pre class="code">
 * class PostgreSqlLockStoreContractTests extends LockStoreContractTests {
 *
 * 	// One database for the whole class, with the store's table (schema-postgresql.sql)
 * 	private static final DataSource dataSource = ...;
 *
 * 	private static final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
 *
 * 	private static final String NOW = "FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";
 *
 * 	&#64;Override
 * 	protected LockStore newStore() {
 * 		// A new store, as a new application instance has
 * 		return new JdbcLockStore(dataSource, JdbcLockStoreSettings.defaults());
 * 	}
 *
 * 	&#64;Override
 * 	protected boolean isLocked(String key) {
 * 		return jdbc.queryForObject("SELECT count(*) FROM distlock_lock WHERE lock_key = ?"
 * 				+ " AND released = FALSE AND expires_at &gt; " + NOW, Integer.class, key) &gt; 0;
 * 	}
 *
 * 	&#64;Override
 * 	protected void takeOver(String key) {
 * 		jdbc.update("INSERT INTO distlock_lock (lock_key, owner_token, released, expires_at, fencing_token)"
 * 				+ " VALUES (?, 'someone-else', FALSE, " + NOW + " + 3600000, nextval('distlock_lock_fence_seq'))"
 * 				+ " ON CONFLICT (lock_key) DO UPDATE SET owner_token = EXCLUDED.owner_token, released = FALSE,"
 * 				+ " expires_at = EXCLUDED.expires_at, fencing_token = EXCLUDED.fencing_token", key);
 * 	}
 *
 * 	&#64;Override
 * 	protected void expire(String key) {
 * 		jdbc.update("UPDATE distlock_lock SET expires_at = " + NOW + " - 1000 WHERE lock_key = ?", key);
 * 	}
 *
 * }
 * </pre>
 * <ul>
 * <li>{@link #newStore()} returns a store on the backend under test; several stores of
 * one test see the same locks (for a store that lives in one JVM: return one instance).
 * The clients the suite makes close their stores after each test.</li>
 * <li>{@link #isLocked(String)} tells whether the backend records a holder of a key, a
 * writer or readers, reading the backend directly and not through a store.</li>
 * <li>{@link #takeOver(String)} gives a key to a foreign owner without expiry, as another
 * client would have taken it after a lost lease; {@link #expire(String)} removes a key's
 * lock as the end of its lease or an eviction would. Neither notifies waiters.</li>
 * <li>Optionally {@link #canBeMadeUnreachable()} and {@link #setUnreachable(boolean)}:
 * the outage cases run when the backend can be cut off from the suite.</li>
 * </ul>
 * Keys are unique per test ({@link #uniqueKey(String)}), so the backend need not be
 * emptied between tests; a test cleans up what it tampered with.
 *
 * @author distlock
 * @since 0.1.0
 */
public abstract class LockStoreContractTests {

	/**
	 * The lease of the cases that watch leases end or get renewed: short enough to keep
	 * them quick, long enough for a slow backend to renew in time.
	 */
	static final Duration SHORT_LEASE = Duration.ofMillis(900);

	private final List<LockClient> clients = new ArrayList<>();

	private final Map<Class<? extends LockStoreExtension>, Boolean> extensions = new ConcurrentHashMap<>();

	/**
	 * Create the suite; a subclass prepares its backend, usually once per class.
	 */
	protected LockStoreContractTests() {
	}

	/**
	 * Return a new store on the backend the subclass tests; every store of one test
	 * shares that backend, as application instances would.
	 * @return the store
	 */
	protected abstract LockStore newStore();

	/**
	 * Return whether the backend records someone holding {@code key}, a writer or
	 * readers.
	 * @param key the lock key as the application named it
	 * @return whether the key is locked in the backend
	 */
	protected abstract boolean isLocked(String key);

	/**
	 * Give {@code key} to a foreign owner that never releases it and whose lock does not
	 * expire, as another client would have taken it; waiters are not notified.
	 * @param key the lock key as the application named it
	 */
	protected abstract void takeOver(String key);

	/**
	 * Drop the lock on {@code key} from the backend, as expiry or eviction would; waiters
	 * are not notified.
	 * @param key the lock key as the application named it
	 */
	protected abstract void expire(String key);

	/**
	 * Return whether {@link #setUnreachable(boolean)} can cut the backend off; the outage
	 * cases are skipped otherwise. The default says it cannot.
	 * @return whether the backend can be made unreachable
	 */
	protected boolean canBeMadeUnreachable() {
		return false;
	}

	/**
	 * Make every store of the backend fail its operations as if the backend could not be
	 * reached, or reachable again; called only if {@link #canBeMadeUnreachable()}.
	 * @param unreachable whether the backend is unreachable
	 */
	protected void setUnreachable(boolean unreachable) {
		throw new UnsupportedOperationException("This backend cannot be made unreachable");
	}

	/**
	 * Return whether the store under test implements {@code extension}, which decides
	 * which groups and cases run. The default asks a store from {@link #newStore()} once
	 * per extension and test.
	 * @param extension the extension's interface
	 * @return whether the store implements it
	 */
	protected boolean implementsExtension(Class<? extends LockStoreExtension> extension) {
		return this.extensions.computeIfAbsent(extension, (type) -> {
			LockStore store = newStore();
			try {
				return store.extension(type) != null;
			}
			finally {
				store.close();
			}
		});
	}

	/**
	 * Close every client the test made, which releases what they still hold.
	 */
	@AfterEach
	protected void closeClients() {
		this.clients.forEach(LockClient::close);
		this.clients.clear();
	}

	/**
	 * Return a lock key that no other test uses.
	 * @param name what the key is for
	 * @return the key
	 */
	protected static String uniqueKey(String name) {
		return name + ":" + UUID.randomUUID();
	}

	boolean supports(Class<? extends LockStoreExtension> extension) {
		return implementsExtension(extension);
	}

	/**
	 * Return the settings the suite's clients use, given those a case asks for: by
	 * default as given. Override to run the whole suite under other engine settings, for
	 * example with {@link LockClientSettings#withUncontendedFastPath(boolean) the
	 * uncontended fast path} off.
	 * @param settings the settings the case asks for
	 * @return the settings to use
	 */
	protected LockClientSettings clientSettings(LockClientSettings settings) {
		return settings;
	}

	DefaultLockClient newClient(LockStore store, LockClientSettings settings, LockClientListener listener) {
		DefaultLockClient client = new DefaultLockClient(store, clientSettings(settings), listener);
		this.clients.add(client);
		return client;
	}

	@Nested
	@DisplayName("Store SPI: the required operations")
	class StoreSpi extends StoreSpiContract {

		StoreSpi() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Store SPI: the extensions")
	class StoreExtensionSpi extends StoreExtensionSpiContract {

		StoreExtensionSpi() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Store SPI: each replay answers as the first request did")
	class StoreReplay extends StoreReplayContract {

		StoreReplay() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Store SPI: each extension's duties on the required operations")
	class ExtensionDuties extends ExtensionDutyContract {

		ExtensionDuties() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Exclusion, ownership and reentrancy")
	class Exclusion extends ExclusionContract {

		Exclusion() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Waiting and timeouts")
	class Waiting extends WaitingContract {

		Waiting() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Leases and renewal")
	class Leases extends LeaseContract {

		Leases() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Loss")
	class Loss extends LossContract {

		Loss() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Several keys")
	class SeveralKeys extends SeveralKeysContract {

		SeveralKeys() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("One of several keys (acquireAny)")
	class AcquireAny extends AcquireAnyContract {

		AcquireAny() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Fair locks")
	class Fair extends FairContract {

		Fair() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Read-write locks")
	class ReadWrite extends ReadWriteContract {

		ReadWrite() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Cohort hand-over and waking one waiter")
	class Cohort extends CohortContract {

		Cohort() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Hand-over without a request")
	class LocalHandOver extends LocalHandOverContract {

		LocalHandOver() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Operator view")
	class OperatorView extends OperatorViewContract {

		OperatorView() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Closing")
	class Close extends CloseContract {

		Close() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Failures and arguments")
	class Failures extends FailureContract {

		Failures() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("Cancellation while acquiring")
	class Cancellation extends CancellationContract {

		Cancellation() {
			super(LockStoreContractTests.this);
		}

	}

	@Nested
	@DisplayName("The end of a fixed lease")
	class LeaseEnd extends LeaseEndContract {

		LeaseEnd() {
			super(LockStoreContractTests.this);
		}

	}

}
