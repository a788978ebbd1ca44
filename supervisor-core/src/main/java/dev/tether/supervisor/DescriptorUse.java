package dev.tether.supervisor;

/**
 * The application's descriptors and the budget a supervisor keeps within them: it never
 * starts a child that would leave the application fewer than {@code reserve} of them (the
 * JDK, the web server, a database pool and the logging need their own).
 *
 * @param used descriptors the process has open, as last counted ({@code /proc/self/fd},
 * once per tick), with the resource sampler's 6 for every child that has a process
 * whether its tree was sampled yet or not, plus those of the children started since
 * @param limit the soft {@code RLIMIT_NOFILE} in force (raised to the hard limit at
 * start), or {@code -1} when unlimited or unknown: then nothing is refused
 * @param reserve descriptors a start must leave to the application
 * @param perChild the most Tether counts for a child it supervises: its output pipe, its
 * pidfd and one for its log file or a stderr captured apart (3), and the {@code /proc}
 * files the resource sampler keeps open while the child's tree is sampled (6: two of its
 * shepherd's, four of its command's); only the 3 once the samplers keep all they may (a
 * quarter of the limit), as they read further trees by path
 * @param sampled descriptors the resource sampler keeps open now (part of {@code used}),
 * for every sampled tree; a tree with descendants keeps three more for each
 * @param room how many more children fit in the budget now ({@link Long#MAX_VALUE}
 * without a limit)
 * @param refusals how many starts were refused for want of descriptors, in all
 */
public record DescriptorUse(long used, long limit, long reserve, int perChild, long sampled, long room, long refusals) {

}
