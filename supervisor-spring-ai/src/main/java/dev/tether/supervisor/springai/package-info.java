/**
 * Supervised MCP servers handed to Spring AI's MCP client: each child with
 * {@code mcp.transport} becomes a named connection whose session lives as long as one
 * process of the child, and is initialised again after a restart. Uses the public API of
 * the core and of the starter only.
 */
@NullMarked
package dev.tether.supervisor.springai;

import org.jspecify.annotations.NullMarked;
