package dev.tether.supervisor.boot;

/**
 * What startup does when the autostarted children need more descriptors than the budget
 * leaves ({@code supervisor.descriptor-budget}).
 */
public enum DescriptorBudgetPolicy {

	/**
	 * Startup fails, naming the children, the cost of each, the limit and the reserve.
	 */
	FAIL_FAST,

	/**
	 * The children that fit start; each of the others is {@code FAILED} with the numbers
	 * in its {@code lastError}, and starts once descriptors free up.
	 */
	START_WHAT_FITS

}
