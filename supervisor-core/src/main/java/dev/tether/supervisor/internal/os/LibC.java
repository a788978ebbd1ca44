package dev.tether.supervisor.internal.os;

import java.nio.ByteBuffer;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.byref.IntByReference;

/**
 * The glibc functions Tether binds directly with jnr-ffi, because jnr-posix lacks them or
 * loses what they say: {@code posix_spawnp} and its file actions (jnr-posix's wrapper
 * drops the errno and cannot close descriptors), the pidfd system calls, epoll, the
 * notify socket, and the pipes and reads of child output. {@code kill}, {@code waitpid}
 * and {@code strerror} come from jnr-posix. Used by the jnr backend ({@link JnrCalls})
 * only; public only because jnr-ffi generates its implementation; use {@link Posix}.
 */
public interface LibC {

	int posix_spawnp(@Out IntByReference pid, @In String file, Pointer fileActions, Pointer attributes, Pointer argv,
			Pointer envp);

	int posix_spawn_file_actions_init(Pointer fileActions);

	int posix_spawn_file_actions_destroy(Pointer fileActions);

	int posix_spawn_file_actions_addopen(Pointer fileActions, int fd, @In String path, int flags, int mode);

	int posix_spawn_file_actions_adddup2(Pointer fileActions, int fd, int newFd);

	int posix_spawn_file_actions_addclose(Pointer fileActions, int fd);

	int posix_spawn_file_actions_addclosefrom_np(Pointer fileActions, int from);

	int posix_spawn_file_actions_addchdir_np(Pointer fileActions, @In String path);

	int posix_spawnattr_init(Pointer attributes);

	int posix_spawnattr_destroy(Pointer attributes);

	int posix_spawnattr_setflags(Pointer attributes, short flags);

	int posix_spawnattr_setsigmask(Pointer attributes, Pointer signals);

	int posix_spawnattr_setsigdefault(Pointer attributes, Pointer signals);

	int sigemptyset(Pointer signals);

	int sigfillset(Pointer signals);

	int sigdelset(Pointer signals, int signal);

	@SaveError
	long syscall(long number, long arg1, long arg2, long arg3, long arg4);

	@SaveError
	int close(int fd);

	int nice(int increment);

	@SaveError
	int getrlimit(int resource, @Out long[] limits);

	@SaveError
	int setrlimit(int resource, @In long[] limits);

	@SaveError
	int pipe2(@Out int[] fds, int flags);

	@SaveError
	int fcntl(int fd, int command, int argument);

	@SaveError
	long read(int fd, @Out ByteBuffer buffer, long count);

	@SaveError
	int socket(int domain, int type, int protocol);

	@SaveError
	int bind(int fd, @In byte[] address, int length);

	@SaveError
	int listen(int fd, int backlog);

	@SaveError
	int setsockopt(int fd, int level, int option, @In int[] value, int length);

	@SaveError
	long recvmsg(int fd, Pointer message, int flags);

	@SaveError
	int epoll_create1(int flags);

	@SaveError
	int epoll_ctl(int epfd, int op, int fd, Pointer event);

	@SaveError
	int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMillis);

}
