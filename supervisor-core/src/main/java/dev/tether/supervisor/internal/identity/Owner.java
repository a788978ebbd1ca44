package dev.tether.supervisor.internal.identity;

/**
 * The supervisor a process belongs to: its installation (shared by every deployment of
 * one application) and its instance (one state directory). Only processes carrying both
 * are ever ours, so two applications that share an installation id never touch each
 * other's processes.
 *
 * @param installationId the installation id ({@code TETHER_INSTALLATION})
 * @param instanceId the instance id ({@code TETHER_INSTANCE}), created once and kept in
 * the state directory
 */
public record Owner(String installationId, String instanceId) {
}
