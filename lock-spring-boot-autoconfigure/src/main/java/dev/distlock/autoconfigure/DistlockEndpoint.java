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
package dev.distlock.autoconfigure;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import dev.distlock.LockBackendException;
import dev.distlock.LogSafe;
import dev.distlock.core.DefaultLockClient;
import dev.distlock.core.ForcedRelease;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockState;
import dev.distlock.LossReason;
import dev.distlock.leader.Leadership;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * The {@code distlock} actuator endpoint (HTTP only), for operators:
 * <ul>
 * <li>{@code GET /actuator/distlock}: the locks this instance holds now, and, with
 * {@code distlock.leader.enabled}, whether it leads (since when, fencing token).</li>
 * <li>{@code GET /actuator/distlock/{key}}: the key's state in the lock store (held or
 * free, time to live, holder) and whether this instance holds it.</li>
 * <li>{@code DELETE /actuator/distlock/{key}}: force release. The endpoint's default
 * access is read-only, so the operation exists only with
 * {@code management.endpoint.distlock.access=unrestricted}, and it is then refused (403)
 * unless {@code distlock.endpoint.force-release=true} as well; every attempt, refused or
 * not, is logged at WARN with the caller. A holder in this instance learns of it as a
 * loss ({@link dev.distlock.LockLostException}, reason {@code forced}).</li>
 * </ul>
 * Keys (often user or order ids) are masked as {@value #MASK} in the answers unless
 * {@code distlock.endpoint.show-keys} shows them ({@link Show}, as Spring Boot's
 * {@code show-values}). Keys in log lines have their control characters escaped
 * ({@link LogSafe}). Like every endpoint but health, it is not exposed over HTTP unless
 * listed in {@code management.endpoints.web.exposure.include}. Keys may contain
 * {@code /}. Its answers are registered for JSON binding in a native image
 * ({@link RegisterReflectionForBinding}), including those that operations answer as a
 * {@code WebEndpointResponse<Object>}, which the actuator's own hints cannot see.
 *
 * @author distlock
 * @since 0.1.0
 */
@WebEndpoint(id = "distlock", defaultAccess = Access.READ_ONLY)
@RegisterReflectionForBinding({ DistlockEndpoint.HeldLocksDescriptor.class, DistlockEndpoint.LockStateDescriptor.class,
		DistlockEndpoint.ForcedReleaseDescriptor.class, DistlockEndpoint.Message.class })
public class DistlockEndpoint {

	private static final Log logger = LogFactory.getLog(DistlockEndpoint.class);

	private static final int STATUS_FORBIDDEN = 403;

	private static final int STATUS_NOT_IMPLEMENTED = 501;

	/**
	 * What a key is replaced with when it is not shown.
	 */
	public static final String MASK = "******";

	private static final boolean servletPresent = ClassUtils.isPresent(
			"org.springframework.web.context.request.ServletRequestAttributes", DistlockEndpoint.class.getClassLoader())
			&& ClassUtils.isPresent("jakarta.servlet.ServletRequest", DistlockEndpoint.class.getClassLoader());

	private final DefaultLockClient client;

	private final boolean forceReleaseEnabled;

	private final Show showKeys;

	private final Set<String> roles;

	private @Nullable Leadership leadership;

	/**
	 * Create the endpoint; keys are never shown.
	 * @param client the lock client to report on
	 * @param forceReleaseEnabled whether force release is allowed
	 */
	public DistlockEndpoint(DefaultLockClient client, boolean forceReleaseEnabled) {
		this(client, forceReleaseEnabled, Show.NEVER, Set.of());
	}

	/**
	 * Create the endpoint.
	 * @param client the lock client to report on
	 * @param forceReleaseEnabled whether force release is allowed
	 * @param showKeys when lock keys are shown rather than masked
	 * @param roles the roles that may see the keys with {@link Show#WHEN_AUTHORIZED};
	 * empty for any authenticated caller
	 */
	public DistlockEndpoint(DefaultLockClient client, boolean forceReleaseEnabled, Show showKeys,
			Collection<String> roles) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(showKeys, "'showKeys' must not be null");
		Assert.notNull(roles, "'roles' must not be null");
		this.client = client;
		this.forceReleaseEnabled = forceReleaseEnabled;
		this.showKeys = showKeys;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * Set the leadership whose state the held locks show.
	 * @param leadership the leadership of this instance
	 * @since 0.1.0
	 */
	public void setLeadership(Leadership leadership) {
		Assert.notNull(leadership, "'leadership' must not be null");
		this.leadership = leadership;
	}

	/**
	 * Return the locks this instance holds now, keys masked.
	 * @return the held locks
	 */
	public HeldLocksDescriptor heldLocks() {
		return heldLocks(SecurityContext.NONE);
	}

	/**
	 * Return the locks this instance holds now.
	 * @param securityContext the caller, who may see the keys
	 * @return the held locks
	 */
	@ReadOperation
	public HeldLocksDescriptor heldLocks(SecurityContext securityContext) {
		boolean showKeys = showKeys(securityContext);
		List<HeldLockDescriptor> locks = this.client.heldLocks()
			.stream()
			.map((lock) -> HeldLockDescriptor.of(lock, showKeys))
			.toList();
		Leadership leadership = this.leadership;
		return new HeldLocksDescriptor(this.client.clientId(), locks.size(), locks,
				(leadership != null) ? LeaderDescriptor.of(leadership) : null);
	}

	/**
	 * Return the state of one lock key in the store, the key masked.
	 * @param key the lock key (its path segments)
	 * @return the key's state, 503 if the store failed
	 */
	public WebEndpointResponse<Object> lock(String[] key) {
		return lock(key, SecurityContext.NONE);
	}

	/**
	 * Return the state of one lock key in the store.
	 * @param key the lock key (its path segments)
	 * @param securityContext the caller, who may see the keys
	 * @return the key's state, 400 if the key is invalid, 503 if the store failed
	 */
	@ReadOperation
	public WebEndpointResponse<Object> lock(@Selector(match = Match.ALL_REMAINING) String[] key,
			SecurityContext securityContext) {
		String lockKey = String.join("/", key);
		String shownKey = shown(lockKey, showKeys(securityContext));
		try {
			LockState state = this.client.inspect(lockKey);
			return new WebEndpointResponse<>(LockStateDescriptor.of(state, showKeys(securityContext)));
		}
		catch (LockBackendException ex) {
			return new WebEndpointResponse<>(new Message(shownKey, detail(ex, showKeys(securityContext))),
					WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
		}
		catch (UnsupportedOperationException ex) {
			return new WebEndpointResponse<>(new Message(shownKey, detail(ex, showKeys(securityContext))),
					STATUS_NOT_IMPLEMENTED);
		}
		catch (IllegalArgumentException ex) {
			return new WebEndpointResponse<>(new Message(shownKey, detail(ex, showKeys(securityContext))),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
	}

	/**
	 * Force-release one lock key, whoever holds it.
	 * @param key the lock key (its path segments)
	 * @param securityContext the caller
	 * @return what was released (200), 404 if the key was free, 403 if force release is
	 * disabled, 400 if the key is invalid, 501 if the store cannot force-release, 503 if
	 * the store failed
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> forceRelease(@Selector(match = Match.ALL_REMAINING) String[] key,
			SecurityContext securityContext) {
		String lockKey = String.join("/", key);
		String logged = LogSafe.escape(lockKey);
		String shownKey = shown(lockKey, showKeys(securityContext));
		String caller = caller(securityContext);
		if (!this.forceReleaseEnabled) {
			logger.warn("Refused to force-release lock '" + logged + "' for " + caller
					+ ": distlock.endpoint.force-release is not enabled");
			return new WebEndpointResponse<>(
					new Message(shownKey,
							"Force release is disabled; set distlock.endpoint.force-release=true to allow it"),
					STATUS_FORBIDDEN);
		}
		ForcedRelease released;
		try {
			released = this.client.forceRelease(lockKey);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Refused to force-release lock '" + logged + "' for " + caller + ": "
					+ LogSafe.escape(ex.getMessage()));
			return new WebEndpointResponse<>(new Message(shownKey, detail(ex, showKeys(securityContext))),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		catch (LockBackendException ex) {
			logger.warn("Could not force-release lock '" + logged + "' for " + caller + ": "
					+ LogSafe.escape(ex.getMessage()));
			logger.debug("Force release failed", ex);
			return new WebEndpointResponse<>(new Message(shownKey, detail(ex, showKeys(securityContext))),
					WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
		}
		catch (UnsupportedOperationException ex) {
			logger.warn("Refused to force-release lock '" + logged + "' for " + caller
					+ ": the lock store cannot force-release (" + LogSafe.escape(ex.getMessage()) + ")");
			return new WebEndpointResponse<>(new Message(shownKey, detail(ex, showKeys(securityContext))),
					STATUS_NOT_IMPLEMENTED);
		}
		if (!released.released()) {
			logger.warn("Force release of lock '" + logged + "' requested by " + caller + ": the lock was free");
			return new WebEndpointResponse<>(new ForcedReleaseDescriptor(shownKey, false, null, false),
					WebEndpointResponse.STATUS_NOT_FOUND);
		}
		logger.warn("Force-released lock '" + logged + "' held by client " + released.holderClientId()
				+ (released.heldByThisClient() ? " (this instance)" : "") + " at the request of " + caller);
		return new WebEndpointResponse<>(
				new ForcedReleaseDescriptor(shownKey, true, released.holderClientId(), released.heldByThisClient()));
	}

	private boolean showKeys(SecurityContext securityContext) {
		return this.showKeys.isShown(securityContext, this.roles);
	}

	private static String shown(String key, boolean show) {
		return show ? key : MASK;
	}

	/**
	 * Return the message of a failure, which may name the key, or only its type.
	 */
	private static @Nullable String detail(RuntimeException ex, boolean showKeys) {
		return showKeys ? ex.getMessage() : ex.getClass().getSimpleName() + " (details hidden with the key)";
	}

	private static String caller(SecurityContext securityContext) {
		Principal principal = securityContext.getPrincipal();
		String who = (principal != null) ? "'" + LogSafe.escape(principal.getName()) + "'"
				: "an unauthenticated caller";
		String from = servletPresent ? ServletCaller.remoteAddress() : null;
		return (from != null) ? who + " from " + from : who;
	}

	/**
	 * The locks this instance holds.
	 *
	 * @param clientId the id of this instance's lock client, found in the owner tokens of
	 * its locks
	 * @param held how many locks it holds
	 * @param locks the locks, oldest first
	 * @param leader the leadership of this instance, if enabled
	 */
	public record HeldLocksDescriptor(String clientId, int held, List<HeldLockDescriptor> locks,
			@Nullable LeaderDescriptor leader) {

	}

	/**
	 * The leadership of this instance.
	 *
	 * @param name the leadership name
	 * @param leader whether this instance leads
	 * @param since when this instance became the leader (ISO-8601), if it leads
	 * @param fencingToken the fencing token of its term, if it leads
	 */
	public record LeaderDescriptor(String name, boolean leader, @Nullable String since, @Nullable Long fencingToken) {

		static LeaderDescriptor of(Leadership leadership) {
			Instant since = leadership.leaderSince().orElse(null);
			OptionalLong token = leadership.fencingToken();
			boolean leads = since != null && token.isPresent();
			return new LeaderDescriptor(leadership.name(), leads, (since != null && leads) ? since.toString() : null,
					leads ? token.getAsLong() : null);
		}

	}

	/**
	 * One lock this instance holds.
	 *
	 * @param name the lock's name in metrics
	 * @param key the lock key
	 * @param holdStarted when the hold started (ISO-8601)
	 * @param heldForMillis how long it has been held
	 * @param leaseRemainingMillis how long the holder still believes it holds the lock
	 * without another renewal
	 * @param renewed whether the watchdog renews the lease (else a fixed lease)
	 * @param fencingToken the fencing token of the grant
	 * @param thread the holding thread of a thread-bound lock, else {@code null} (a hold
	 * owned by a call)
	 * @param lost why the lock is known lost, if it is, although not yet released
	 * @param waiting how many threads or calls of this instance wait for the key
	 */
	public record HeldLockDescriptor(String name, String key, String holdStarted, long heldForMillis,
			long leaseRemainingMillis, boolean renewed, long fencingToken, @Nullable String thread,
			@Nullable String lost, int waiting) {

		static HeldLockDescriptor of(HeldLock lock, boolean showKey) {
			LossReason lost = lock.lost();
			return new HeldLockDescriptor(lock.name(), shown(lock.key(), showKey), lock.acquiredAt().toString(),
					Math.max(0, Duration.between(lock.acquiredAt(), Instant.now()).toMillis()),
					lock.leaseRemaining().toMillis(), lock.renewed(), lock.fencingToken(), lock.thread(),
					(lost != null) ? lost.tagValue() : null, lock.waiting());
		}

	}

	/**
	 * The state of one key in the lock store.
	 *
	 * @param key the lock key
	 * @param state {@code held} or {@code free}
	 * @param ttlMillis the remaining time to live of the lock, or {@code null} if free or
	 * without expiry
	 * @param holderClientId the client id of the holder, if it is a distlock client
	 * @param heldByThisInstance whether this instance holds it
	 * @param lastFencingToken the last fencing token granted for the key ({@code 0} if
	 * unknown)
	 * @param local this instance's hold of the key, if any
	 */
	public record LockStateDescriptor(String key, String state, @Nullable Long ttlMillis,
			@Nullable String holderClientId, boolean heldByThisInstance, long lastFencingToken,
			@Nullable HeldLockDescriptor local) {

		static LockStateDescriptor of(LockState state, boolean showKey) {
			Duration ttl = state.ttl();
			HeldLock local = state.local();
			return new LockStateDescriptor(shown(state.key(), showKey), state.held() ? "held" : "free",
					(ttl != null) ? ttl.toMillis() : null, state.holderClientId(), state.heldByThisClient(),
					state.lastFencingToken(), (local != null) ? HeldLockDescriptor.of(local, showKey) : null);
		}

	}

	/**
	 * What a force release did.
	 *
	 * @param key the lock key
	 * @param released whether a lock was deleted
	 * @param holderClientId the client id of the holder whose lock was deleted, if it is
	 * a distlock client
	 * @param heldByThisInstance whether that holder is this instance
	 */
	public record ForcedReleaseDescriptor(String key, boolean released, @Nullable String holderClientId,
			boolean heldByThisInstance) {

	}

	/**
	 * Why an operation on a key did not succeed.
	 *
	 * @param key the lock key
	 * @param message what went wrong
	 */
	public record Message(String key, @Nullable String message) {

	}

	/**
	 * Reads the remote address of the current servlet request, if any.
	 */
	private static final class ServletCaller {

		static @Nullable String remoteAddress() {
			if (org.springframework.web.context.request.RequestContextHolder
				.getRequestAttributes() instanceof org.springframework.web.context.request.ServletRequestAttributes attributes) {
				return attributes.getRequest().getRemoteAddr();
			}
			return null;
		}

	}

}
