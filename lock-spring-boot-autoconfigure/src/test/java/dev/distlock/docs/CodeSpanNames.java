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
package dev.distlock.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.distlock.docs.MarkdownBlocks.Block;

/**
 * Reports the Java names in code spans of the documentation that the source tree does not
 * declare. A code span is read as a name when it is one of:
 * <ul>
 * <li>a type, simple or qualified ({@code LockHold}, {@code aop.AsyncAdviceTests},
 * {@code dev.distlock.core.LockClient}), possibly followed by members
 * ({@code LockHold.release()}, {@code LockStore.Capability}, {@code
 * CurrentLock.get().fencingToken()}): the type must exist (a qualifier must match the end
 * of its package), and its first member must be declared by it or a supertype; later
 * members of a chain must be declared by some type;</li>
 * <li>{@code ...member}: a member of the type named last in the same block;</li>
 * <li>calls on a variable ({@code lockClient.fair()}, {@code locks.makeBusy(key)}): each
 * method must be declared by some type;</li>
 * <li>an annotation ({@code @DistributedLock(fair = true)}): each attribute must be
 * declared by the annotation;</li>
 * <li>{@code attribute = value} ({@code mode = READ}): an attribute of
 * {@code @DistributedLock}, and a constant value declared by some type.</li>
 * </ul>
 * A type the source tree does not declare must be a class of {@code java.lang},
 * {@code java.util}, {@code java.util.concurrent(.locks)}, {@code java.time} or
 * {@code java.util.function}, a qualified name the class path loads, or one of
 * {@link #EXTERNAL}: names of other libraries the pages discuss, such as Spring's and
 * those of the libraries a migration guide compares. Other code spans (property and meter
 * names, Redis commands, SpEL, shell) are not read.
 *
 * @author distlock
 */
final class CodeSpanNames {

	/**
	 * Types of other libraries the pages name, which the source tree does not declare and
	 * the test class path may not hold.
	 */
	static final Set<String> EXTERNAL = Set.of(
			// Spring Framework and Spring Boot
			"Transactional", "Cacheable", "Scheduled", "Async", "EventListener", "Lazy", "Primary", "Bean", "Service",
			"Component", "AliasFor", "EnableTransactionManagement", "Ordered", "StringRedisTemplate", "RedisTemplate",
			"RedisConnectionFactory", "LettuceConnectionFactory", "JedisConnectionFactory", "ReactiveAdapterRegistry",
			"TransactionAspectSupport", "CacheAspectSupport", "RuntimeHintsPredicates", "RuntimeHintsRegistrar",
			"RegisterReflectionForBinding", "WebEndpointResponse", "SpringBootTest", "Autowired", "Test",
			"FlywayDataSource", "QuartzDataSource", "DataSource", "CommandLineRunner", "DynamicPropertySource",
			"ServiceConnection", "PostgreSQLContainer", "MockitoBean", "ConfigurationProperties",
			"DataRedisAutoConfiguration", "RedisAutoConfiguration", "ObservationRegistry", "MeterRegistry",
			"PrometheusMeterRegistry", "SimpleMeterRegistry", "Mono", "Flux", "Lock", "ReentrantLock",
			"ReentrantReadWriteLock",
			// Redisson
			"RedissonClient", "RLock", "RReadWriteLock", "RFencedLock", "RedissonFairLock", "RedissonMultiLock",
			"RedissonRedLock", "Config",
			// ShedLock
			"SchedulerLock", "EnableSchedulerLock", "LockProvider", "LockAssert", "KeepAliveLockProvider",
			"RedisLockProvider", "LockingTaskExecutor", "LockConfiguration",
			// Spring Integration
			"RedisLockRegistry", "LockRegistry", "ExpirableLockRegistry", "RenewableLockRegistry", "JdbcLockRegistry",
			"ZookeeperLockRegistry", "DefaultLockRepository", "WhileLockedProcessor", "RedisLockType",
			"LockRegistryLeaderInitiator", "OnGrantedEvent", "OnRevokedEvent", "Context",
			// Apache Curator
			"CuratorFramework", "InterProcessMutex", "TestingCluster", "TestingServer", "LeaderLatch",
			"LeaderLatchListener",
			// lock4j, Lettuce, Jedis
			"Lock4j", "LockTemplate", "RedisURI", "ClientOptions", "SslOptions", "JedisPool");

	private static final List<String> JDK_PACKAGES = List.of("java.lang", "java.util", "java.util.concurrent",
			"java.util.concurrent.locks", "java.time", "java.util.function");

	private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

	private static final Pattern ARGUMENTS = Pattern.compile("\\([^()]*\\)");

	private static final Pattern CHAIN = Pattern.compile("\\w+(?:\\(\\))?(?:\\.\\w+(?:\\(\\))?)*");

	private static final Pattern ANNOTATION = Pattern.compile("@([A-Z]\\w*)(?:\\((.*)\\))?");

	private static final Pattern ATTRIBUTE = Pattern.compile("(?:^|[(,]\\s*)([a-z]\\w*)\\s*=");

	private static final Pattern ASSIGNMENT = Pattern.compile("([a-z]\\w*) = ([\\w.\"']+)");

	private static final Pattern CONTINUATION = Pattern.compile("\\.\\.\\.(\\w+)");

	private static final Pattern CONSTANT = Pattern.compile("[A-Z][A-Z0-9_]*");

	private final SourceIndex index;

	CodeSpanNames(SourceIndex index) {
		this.index = index;
	}

	/**
	 * Return the names of code spans the source tree does not declare.
	 * @param root the directory the files' names in the problems are relative to
	 * @param pages the pages
	 * @return one line per problem ({@code file:line: `span`: reason}), empty when none
	 */
	List<String> problems(Path root, List<Path> pages) {
		List<String> problems = new ArrayList<>();
		for (Path page : pages) {
			String name = root.relativize(page).toString();
			for (Block block : MarkdownBlocks.of(MarkdownBlocks.read(page))) {
				String lastType = null;
				Matcher span = CODE_SPAN.matcher(block.text());
				while (span.find()) {
					String code = span.group(1).strip();
					Result result = check(code, lastType);
					if (result.type() != null) {
						lastType = result.type();
					}
					if (result.problem() != null) {
						problems.add(name + ":" + block.line() + ": `" + code + "`: " + result.problem());
					}
				}
			}
		}
		return problems;
	}

	Result check(String code, String lastType) {
		Matcher continuation = CONTINUATION.matcher(code);
		if (continuation.matches()) {
			if (lastType == null) {
				return new Result(null, "no type before it in the block");
			}
			return this.index.hasMember(lastType, continuation.group(1)) ? Result.OK
					: new Result(null, lastType + " declares no " + continuation.group(1));
		}
		Matcher annotation = ANNOTATION.matcher(code);
		if (annotation.matches()) {
			return checkAnnotation(annotation.group(1), annotation.group(2));
		}
		Matcher assignment = ASSIGNMENT.matcher(code);
		if (assignment.matches()) {
			return checkAssignment(assignment.group(1), assignment.group(2));
		}
		String chain = ARGUMENTS.matcher(code).replaceAll("()");
		if (!CHAIN.matcher(chain).matches() || chain.startsWith("this.")) {
			return Result.OK;
		}
		return checkChain(Arrays.asList(chain.split("\\.")));
	}

	private Result checkAnnotation(String type, String attributes) {
		if (!this.index.hasType("", type)) {
			return isExternal("", type) ? Result.OK : new Result(null, "no annotation " + type);
		}
		if (attributes != null) {
			Matcher attribute = ATTRIBUTE.matcher(attributes);
			while (attribute.find()) {
				if (!this.index.hasMember(type, attribute.group(1))) {
					return new Result(type, "@" + type + " has no attribute " + attribute.group(1));
				}
			}
		}
		return new Result(type, null);
	}

	private Result checkAssignment(String attribute, String value) {
		if (!this.index.hasMember("DistributedLock", attribute)) {
			return new Result(null, "@DistributedLock has no attribute " + attribute);
		}
		String last = value.substring(value.lastIndexOf('.') + 1);
		if (CONSTANT.matcher(last).matches() && !this.index.declaresAnywhere(last)) {
			return new Result(null, "no constant " + last);
		}
		return Result.OK;
	}

	private Result checkChain(List<String> segments) {
		int typeAt = -1;
		for (int i = 0; i < segments.size(); i++) {
			String segment = segments.get(i);
			if (Character.isUpperCase(segment.charAt(0)) && !segment.endsWith("()")) {
				typeAt = i;
				break;
			}
			if (segment.endsWith("()") || !isPackageSegment(segment)) {
				break;
			}
		}
		if (typeAt < 0) {
			return checkCalls(segments.subList(1, segments.size()));
		}
		String qualifier = String.join(".", segments.subList(0, typeAt));
		String type = segments.get(typeAt);
		if (typeAt == 0 && segments.size() == 1 && CONSTANT.matcher(type).matches()) {
			return Result.OK;
		}
		if (!this.index.hasType(qualifier, type)) {
			if (isExternal(qualifier, type)) {
				return Result.OK;
			}
			return new Result(null, "no type " + (qualifier.isEmpty() ? type : qualifier + "." + type));
		}
		if (segments.size() > typeAt + 1) {
			String member = strip(segments.get(typeAt + 1));
			if (!this.index.hasMember(type, member)) {
				return new Result(type, type + " declares no " + member);
			}
			Result rest = checkCalls(segments.subList(typeAt + 2, segments.size()));
			return new Result(Character.isUpperCase(member.charAt(0)) ? member : type, rest.problem());
		}
		return new Result(type, null);
	}

	private Result checkCalls(List<String> segments) {
		for (String segment : segments) {
			if (segment.endsWith("()") && !this.index.declaresAnywhere(strip(segment))) {
				return new Result(null, "no method " + strip(segment) + " in the source tree");
			}
		}
		return Result.OK;
	}

	private static boolean isPackageSegment(String segment) {
		return segment.chars().allMatch((c) -> Character.isLowerCase(c) || Character.isDigit(c));
	}

	private static String strip(String segment) {
		return segment.endsWith("()") ? segment.substring(0, segment.length() - 2) : segment;
	}

	private static boolean isExternal(String qualifier, String type) {
		if (!qualifier.isEmpty()) {
			if (qualifier.startsWith("dev.distlock")) {
				return false;
			}
			return loads(qualifier + "." + type) || EXTERNAL.contains(type);
		}
		return EXTERNAL.contains(type) || JDK_PACKAGES.stream().anyMatch((pkg) -> loads(pkg + "." + type));
	}

	private static boolean loads(String className) {
		try {
			Class.forName(className, false, CodeSpanNames.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/**
	 * The outcome of checking one code span.
	 *
	 * @param type the type it named, for a later {@code ...member}, or {@code null}
	 * @param problem what is wrong, or {@code null}
	 */
	record Result(String type, String problem) {

		static final Result OK = new Result(null, null);

	}

}
