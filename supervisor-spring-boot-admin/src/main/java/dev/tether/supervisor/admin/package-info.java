/**
 * Tether's console in Spring Boot Admin: a UI extension (under
 * {@code META-INF/spring-boot-admin-server-ui/extensions/tether}) and what the server
 * needs to reach the endpoints it reads.
 */
@NullMarked
package dev.tether.supervisor.admin;

import org.jspecify.annotations.NullMarked;
