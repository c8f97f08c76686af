/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KUnit tests for the return-probe bookkeeping: copying pending return
 * instances to a child, putting real return addresses back into a
 * callchain, which instances a return through the trampoline ends, and
 * which frames are alive where calls do not move sp. They run on a
 * kernel thread, which has no trampoline: its trampoline address is
 * UPROBE_NO_TRAMPOLINE_VADDR.
 */
#include <kunit/test.h>

static void uprobe_ret_test_push(struct uprobe_task *utask, struct uprobe *u,
				 struct return_instance *ri, unsigned long orig)
{
	ri->uprobe = uprobe_get(u);
	ri->orig_ret_vaddr = orig;
	ri->next = utask->return_instances;
	utask->return_instances = ri;
	utask->depth++;
}

static void uprobe_ret_test_callchain(struct kunit *test)
{
	const u64 tramp = UPROBE_NO_TRAMPOLINE_VADDR;
	struct uprobe_task *utask = kunit_kzalloc(test, sizeof(*utask),
						  GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct uprobe u = { .ref = REFCOUNT_INIT(1) };
	struct return_instance *ri;
	u64 ips[] = { 0x1000, tramp, 0x2000, tramp, tramp, 0x3000 };

	KUNIT_ASSERT_NOT_NULL(test, utask);
	KUNIT_ASSERT_EQ(test, uprobe_get_trampoline_vaddr(), tramp);
	/* Outermost pushed first. */
	ri = kunit_kzalloc(test, sizeof(*ri), GFP_KERNEL);
	uprobe_ret_test_push(utask, &u, ri, 0x4444);
	ri = kunit_kzalloc(test, sizeof(*ri), GFP_KERNEL);
	uprobe_ret_test_push(utask, &u, ri, 0x5555);
	KUNIT_EXPECT_EQ(test, refcount_read(&u.ref), 3);

	current->utask = utask;
	uprobe_fixup_callchain(ips, ARRAY_SIZE(ips));
	current->utask = saved;

	KUNIT_EXPECT_EQ(test, ips[0], 0x1000ULL);
	KUNIT_EXPECT_EQ(test, ips[1], 0x5555ULL);	/* innermost first */
	KUNIT_EXPECT_EQ(test, ips[2], 0x2000ULL);
	KUNIT_EXPECT_EQ(test, ips[3], 0x4444ULL);
	/* More trampolines than instances: the rest stays as it is. */
	KUNIT_EXPECT_EQ(test, ips[4], tramp);
	KUNIT_EXPECT_EQ(test, ips[5], 0x3000ULL);

	refcount_set(&u.ref, 1);
}

/*
 * A tail call's instance shares its caller's return address, and the
 * stack holds one trampoline address for the two: the next one stands
 * for the instance after the chain.
 */
static void uprobe_ret_test_callchain_tail_call(struct kunit *test)
{
	const u64 tramp = UPROBE_NO_TRAMPOLINE_VADDR;
	struct uprobe_task *utask = kunit_kzalloc(test, sizeof(*utask),
						  GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct uprobe u = { .ref = REFCOUNT_INIT(1) };
	struct return_instance *ri[3];
	u64 ips[] = { tramp, tramp };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, utask);
	for (i = 0; i < ARRAY_SIZE(ri); i++) {
		ri[i] = kunit_kzalloc(test, sizeof(*ri[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ri[i]);
	}
	/* O returns to 0x7300; A (to 0x7200) tail-called B. */
	uprobe_ret_test_push(utask, &u, ri[0], 0x7300);
	uprobe_ret_test_push(utask, &u, ri[1], 0x7200);
	ri[2]->chained = true;
	uprobe_ret_test_push(utask, &u, ri[2], 0x7200);

	current->utask = utask;
	uprobe_fixup_callchain(ips, ARRAY_SIZE(ips));
	current->utask = saved;

	KUNIT_EXPECT_EQ(test, ips[0], 0x7200ULL);
	KUNIT_EXPECT_EQ(test, ips[1], 0x7300ULL);
	refcount_set(&u.ref, 1);
}

static void uprobe_ret_test_dup(struct kunit *test)
{
	struct uprobe_task *pt = kunit_kzalloc(test, sizeof(*pt), GFP_KERNEL);
	struct uprobe_task *ct = kunit_kzalloc(test, sizeof(*ct), GFP_KERNEL);
	struct uprobe u = { .ref = REFCOUNT_INIT(1) };
	struct return_instance *ri, *c;
	int i, j;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, ct);

	for (i = 0; i < 3; i++) {
		/* Room for 4 consumers, i of them waiting. */
		ri = kunit_kzalloc(test, struct_size(ri, consumers, 4),
				   GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ri);
		ri->max_consumers = 4;
		ri->nr_consumers = i;
		for (j = 0; j < i; j++) {
			ri->consumers[j].id = 10 * i + j;
			ri->consumers[j].cookie = 0x100 * i + j;
		}
		ri->stack = 0x7000 + i * 0x100;
		ri->func = 0x400000 + i;
		ri->chained = i == 1;
		uprobe_ret_test_push(pt, &u, ri, 0x1000 + i);
	}
	uprobe_dup_return_instances(ct, pt);
	KUNIT_EXPECT_EQ(test, ct->depth, 3U);
	KUNIT_EXPECT_EQ(test, refcount_read(&u.ref), 7);
	/* Same order and content, separate memory. */
	for (ri = pt->return_instances, c = ct->return_instances; ri;
	     ri = ri->next, c = c->next) {
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_EXPECT_PTR_NE(test, c, ri);
		KUNIT_EXPECT_EQ(test, c->stack, ri->stack);
		KUNIT_EXPECT_EQ(test, c->func, ri->func);
		KUNIT_EXPECT_EQ(test, c->orig_ret_vaddr, ri->orig_ret_vaddr);
		KUNIT_EXPECT_EQ(test, c->chained, ri->chained);
		KUNIT_EXPECT_PTR_EQ(test, c->uprobe, &u);
		/* The waiting consumers, and room for no more. */
		KUNIT_EXPECT_EQ(test, c->nr_consumers, ri->nr_consumers);
		KUNIT_EXPECT_EQ(test, c->max_consumers, ri->nr_consumers);
		for (j = 0; j < ri->nr_consumers; j++) {
			KUNIT_EXPECT_EQ(test, c->consumers[j].id,
					ri->consumers[j].id);
			KUNIT_EXPECT_EQ(test, c->consumers[j].cookie,
					ri->consumers[j].cookie);
		}
	}
	KUNIT_EXPECT_NULL(test, c);

	uprobe_free_return_instances(ct);
	KUNIT_EXPECT_NULL(test, ct->return_instances);
	KUNIT_EXPECT_EQ(test, ct->depth, 0U);
	KUNIT_EXPECT_EQ(test, refcount_read(&u.ref), 4);
	refcount_set(&u.ref, 1);
}

/*
 * The trampoline tests tell frames by the stack pointer, pt_regs::sp on
 * x86 and arm64; the other architectures' arch_uretprobe_is_alive() is
 * their own.
 */
#ifdef CONFIG_HAVE_UPROBES_ARCH_PART
/* What the return handlers of the trampoline tests saw, in order. */
static unsigned long uprobe_ret_test_seen[8];
static int uprobe_ret_test_nseen;

static void uprobe_ret_test_record(unsigned long v)
{
	if (uprobe_ret_test_nseen < ARRAY_SIZE(uprobe_ret_test_seen))
		uprobe_ret_test_seen[uprobe_ret_test_nseen] = v;
	uprobe_ret_test_nseen++;
}

/* The consumer the instances of uprobe_ret_test_enter() wait for. */
#define UPROBE_RET_TEST_ID	7

/* Return handler that records ri->func. */
static int uprobe_ret_test_handler(struct uprobe_consumer *uc,
				   unsigned long func, struct pt_regs *regs,
				   __u64 *data)
{
	uprobe_ret_test_record(func);
	return 0;
}

/*
 * Return handler that takes a stack trace, as bpf_get_stack() in a BPF
 * return probe does, and records what the trampoline address above it
 * (the caller's return address, diverted) stands for.
 */
static int uprobe_ret_test_trace_handler(struct uprobe_consumer *uc,
					 unsigned long func,
					 struct pt_regs *regs, __u64 *data)
{
	u64 ips[] = { UPROBE_NO_TRAMPOLINE_VADDR };

	uprobe_fixup_callchain(ips, ARRAY_SIZE(ips));
	uprobe_ret_test_record(ips[0]);
	return 0;
}

/* Pushes an instance (outermost first) of a function entered at @sp. */
static void uprobe_ret_test_enter(struct kunit *test, struct uprobe_task *ut,
				  struct uprobe *u, unsigned long func,
				  unsigned long sp, bool chained)
{
	struct return_instance *ri;

	ri = kzalloc(struct_size(ri, consumers, 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ri);
	ri->max_consumers = 1;
	ri->nr_consumers = 1;
	ri->consumers[0].id = UPROBE_RET_TEST_ID;
	ri->func = func;
	ri->stack = sp;
	ri->chained = chained;
	uprobe_ret_test_push(ut, u, ri, 0x7000 + (sp & 0xfff));
}

/*
 * The trampoline handles the chain of the returning frame: a tail call's
 * instance with its caller's, innermost first; chains of frames that
 * longjmp() left, chained tops included, go without their handlers.
 */
static void uprobe_ret_test_trampoline(struct kunit *test)
{
	struct uprobe_consumer uc = {
		.ret_handler = uprobe_ret_test_handler,
		.id = UPROBE_RET_TEST_ID,
	};
	struct uprobe_task *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct uprobe u = { .ref = REFCOUNT_INIT(1) };
	struct pt_regs regs = {};

	KUNIT_ASSERT_NOT_NULL(test, ut);
	INIT_LIST_HEAD(&u.consumers);
	list_add(&uc.cons_node, &u.consumers);
	current->utask = ut;

	/* O at 0x300 calls A (0x200), which tail-calls B: B returns. */
	uprobe_ret_test_enter(test, ut, &u, 0xa0, 0x300, false);
	uprobe_ret_test_enter(test, ut, &u, 0xa1, 0x200, false);
	uprobe_ret_test_enter(test, ut, &u, 0xa2, 0x200, true);
	uprobe_ret_test_nseen = 0;
	regs.sp = 0x208;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_nseen, 2);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[0], 0xa2UL);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[1], 0xa1UL);
	KUNIT_EXPECT_EQ(test, instruction_pointer(&regs), 0x7200UL);
	KUNIT_EXPECT_EQ(test, ut->depth, 1U);

	/*
	 * O calls C (0x100), which tail-calls D; longjmp() leaves both and
	 * O returns: C and D are dropped, only O's handler runs.
	 */
	uprobe_ret_test_enter(test, ut, &u, 0xc0, 0x100, false);
	uprobe_ret_test_enter(test, ut, &u, 0xc1, 0x100, true);
	uprobe_ret_test_nseen = 0;
	regs.sp = 0x308;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_nseen, 1);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[0], 0xa0UL);
	KUNIT_EXPECT_EQ(test, instruction_pointer(&regs), 0x7300UL);
	KUNIT_EXPECT_NULL(test, ut->return_instances);
	KUNIT_EXPECT_EQ(test, ut->depth, 0U);
	KUNIT_EXPECT_EQ(test, refcount_read(&u.ref), 1);
	uprobe_free_return_instances(ut);
	KUNIT_EXPECT_NULL(test, ut->ri_spare);

	current->utask = saved;
}

/* How many instances kept for reuse, each one of the three of @ri. */
static int uprobe_ret_test_kept(struct uprobe_task *ut,
				struct return_instance **ri)
{
	struct return_instance *p;
	int n = 0;

	for (p = ut->ri_spare; p; p = p->next) {
		if (p != ri[0] && p != ri[1] && p != ri[2])
			return -1;
		n++;
	}
	return n;
}

/* Pushes a new instance; whether it is one of the three of @ri. */
static bool uprobe_ret_test_take(struct kunit *test, struct uprobe_task *ut,
				 struct uprobe *u, struct return_instance **ri)
{
	struct return_instance *got = uprobe_new_instance(ut);

	KUNIT_ASSERT_NOT_NULL(test, got);
	uprobe_ret_test_push(ut, u, got, 0);
	return got == ri[0] || got == ri[1] || got == ri[2];
}

/*
 * Every instance a return or a longjmp() ends is kept for the next
 * return probes: as many as were pending, reused before any allocation,
 * and freed with the rest.
 */
static void uprobe_ret_test_pool(struct kunit *test)
{
	struct uprobe_task *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct uprobe *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	struct return_instance *ri[3];
	struct pt_regs regs = {};
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ut);
	KUNIT_ASSERT_NOT_NULL(test, u);
	refcount_set(&u->ref, 1);
	INIT_LIST_HEAD(&u->consumers);
	current->utask = ut;

	/* Recursion three deep (0x300, 0x200, 0x100), then one return. */
	for (i = 0; i < 3; i++) {
		uprobe_ret_test_enter(test, ut, u, 0xa0 + i, 0x300 - 0x100 * i,
				      false);
		ri[i] = ut->return_instances;
	}
	regs.sp = 0x308;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_NULL(test, ut->return_instances);
	/* All three are kept (an allocator may hand freed ones back). */
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_kept(ut, ri), 3);

	/* The next three come from those, the fourth is new. */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, uprobe_ret_test_take(test, ut, u, ri),
				i < 3);
	KUNIT_EXPECT_NULL(test, ut->ri_spare);
	uprobe_free_return_instances(ut);
	KUNIT_EXPECT_NULL(test, ut->return_instances);
	KUNIT_EXPECT_EQ(test, refcount_read(&u->ref), 1);

	current->utask = saved;
}

/*
 * In a return handler, the returning frame's instance is pending no more:
 * the trampoline address of its caller, still on the stack, stands for
 * the caller's instance.
 */
static void uprobe_ret_test_trace_in_handler(struct kunit *test)
{
	struct uprobe_consumer uc = {
		.ret_handler = uprobe_ret_test_trace_handler,
		.id = UPROBE_RET_TEST_ID,
	};
	struct uprobe_task *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct uprobe u = { .ref = REFCOUNT_INIT(1) };
	struct pt_regs regs = {};

	KUNIT_ASSERT_NOT_NULL(test, ut);
	INIT_LIST_HEAD(&u.consumers);
	list_add(&uc.cons_node, &u.consumers);
	current->utask = ut;

	/* O at 0x300 (returns to 0x7300) calls A at 0x200 (to 0x7200). */
	uprobe_ret_test_enter(test, ut, &u, 0xa0, 0x300, false);
	uprobe_ret_test_enter(test, ut, &u, 0xa1, 0x200, false);
	uprobe_ret_test_nseen = 0;
	regs.sp = 0x208;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_nseen, 1);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[0], 0x7300UL);
	/* O returns: nothing pending, the trampoline stays as it is. */
	uprobe_ret_test_nseen = 0;
	regs.sp = 0x308;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_nseen, 1);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[0],
			(unsigned long)UPROBE_NO_TRAMPOLINE_VADDR);
	KUNIT_EXPECT_NULL(test, ut->return_instances);
	KUNIT_EXPECT_EQ(test, refcount_read(&u.ref), 1);

	/*
	 * O calls A, which tail-calls B: both handlers run when B returns,
	 * and the trampoline above them stands for O's instance.
	 */
	uprobe_ret_test_enter(test, ut, &u, 0xa0, 0x300, false);
	uprobe_ret_test_enter(test, ut, &u, 0xa1, 0x200, false);
	uprobe_ret_test_enter(test, ut, &u, 0xa2, 0x200, true);
	uprobe_ret_test_nseen = 0;
	regs.sp = 0x208;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_nseen, 2);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[0], 0x7300UL);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[1], 0x7300UL);
	KUNIT_EXPECT_EQ(test, ut->depth, 1U);
	uprobe_free_return_instances(ut);

	current->utask = saved;
}

/* Return handler that records its cookie, and changes it. */
static int uprobe_ret_test_cookie_handler(struct uprobe_consumer *uc,
					  unsigned long func,
					  struct pt_regs *regs, __u64 *data)
{
	uprobe_ret_test_record(*data);
	*data = 0;
	return 0;
}

/* Entry handler of the sessions of uprobe_ret_test_consumers(). */
static int uprobe_ret_test_entry(struct uprobe_consumer *uc,
				 struct pt_regs *regs, __u64 *data)
{
	return 0;
}

/*
 * A return runs the return handlers of the sessions its entry recorded,
 * each with its own cookie, and of those only: not a session registered
 * since the entry, nor one whose entry declined its return. A consumer
 * with only a return handler gets every return, with a zero cookie when
 * its entry was not recorded.
 */
static void uprobe_ret_test_consumers(struct kunit *test)
{
	struct uprobe_consumer uc[4];
	struct uprobe_task *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct uprobe u = { .ref = REFCOUNT_INIT(1) };
	struct return_instance *ri;
	struct pt_regs regs = {};
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ut);
	INIT_LIST_HEAD(&u.consumers);
	for (i = 0; i < ARRAY_SIZE(uc); i++) {
		uc[i] = (struct uprobe_consumer) {
			.handler = uprobe_ret_test_entry,
			.ret_handler = uprobe_ret_test_cookie_handler,
			.id = 100 + i,
		};
		/* At the head: the list is uc[3], uc[2], uc[1], uc[0]. */
		list_add(&uc[i].cons_node, &u.consumers);
	}
	/* uc[3] has only a return handler, and came after the entry. */
	uc[3].handler = NULL;
	current->utask = ut;
	/* uc[1] declined (or came later): no entry of its own. */
	ri = uprobe_return_add(NULL, 102, 0x2222);
	ri = uprobe_return_add(ri, 100, 0x1111);
	KUNIT_ASSERT_NOT_NULL(test, ri);
	ri->func = 0xa0;
	ri->stack = 0x300;
	uprobe_ret_test_push(ut, &u, ri, 0x7300);

	uprobe_ret_test_nseen = 0;
	regs.sp = 0x308;
	uprobe_handle_trampoline(&regs);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_nseen, 3);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[0], 0UL);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[1], 0x2222UL);
	KUNIT_EXPECT_EQ(test, uprobe_ret_test_seen[2], 0x1111UL);
	KUNIT_EXPECT_EQ(test, refcount_read(&u.ref), 1);
	uprobe_free_return_instances(ut);
	current->utask = saved;
}

/*
 * An instance grows for more consumers than it has room for, in order,
 * and keeps its room when reused: no allocation the next time.
 */
static void uprobe_ret_test_grow(struct kunit *test)
{
	struct uprobe_task *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	struct uprobe_task *saved = current->utask;
	struct return_instance *ri = NULL, *again;
	unsigned int i, n = 3 * UPROBE_RI_CONSUMERS + 1;

	KUNIT_ASSERT_NOT_NULL(test, ut);
	current->utask = ut;
	for (i = 0; i < n; i++)
		ri = uprobe_return_add(ri, i, 10 * i);
	KUNIT_ASSERT_NOT_NULL(test, ri);
	KUNIT_EXPECT_EQ(test, ri->nr_consumers, n);
	KUNIT_EXPECT_GE(test, ri->max_consumers, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, ri->consumers[i].id, (u64)i);
		KUNIT_EXPECT_EQ(test, ri->consumers[i].cookie, (u64)10 * i);
	}
	uprobe_return_discard(ri);
	KUNIT_EXPECT_PTR_EQ(test, ut->ri_spare, ri);
	again = uprobe_return_add(NULL, 1, 2);
	KUNIT_EXPECT_PTR_EQ(test, again, ri);
	KUNIT_EXPECT_EQ(test, again->nr_consumers, 1U);
	KUNIT_EXPECT_GE(test, again->max_consumers, n);
	uprobe_return_discard(again);
	uprobe_free_return_instances(ut);
	KUNIT_EXPECT_NULL(test, ut->ri_spare);
	current->utask = saved;
}
#endif

/*
 * uprobe_lr_alive(): frames entered with sp, which a call leaving its
 * return address in a register does not move (arm64, s390).
 */
static void uprobe_ret_test_lr_alive(struct kunit *test)
{
	const unsigned long ra = 0x412348, sp = 0x7fff1000;
	struct return_instance ri = { .stack = sp, .orig_ret_vaddr = ra };
	struct return_instance left = { .stack = sp - 0x20, .next = &ri };
	struct return_instance frameless = { .stack = sp, .next = &ri,
					     .orig_ret_vaddr = ra + 0x40 };

	/* a new entry with the same sp, from the same site: the frame is gone */
	KUNIT_EXPECT_FALSE(test, uprobe_lr_alive(&ri, RP_CHECK_CALL, sp, ra,
						 &ri));
	/* from elsewhere: a caller without a frame of its own, still there */
	KUNIT_EXPECT_TRUE(test, uprobe_lr_alive(&ri, RP_CHECK_CALL, sp,
						ra + 0x20, &ri));
	/* from the site of an instance under it at that sp: both gone */
	KUNIT_EXPECT_FALSE(test, uprobe_lr_alive(&frameless, RP_CHECK_CALL, sp,
						 ra, &frameless));
	KUNIT_EXPECT_TRUE(test, uprobe_lr_alive(&frameless, RP_CHECK_CALL, sp,
						ra + 0x80, &frameless));
	/* a tail call from that frame: still there */
	KUNIT_EXPECT_TRUE(test, uprobe_lr_alive(&ri, RP_CHECK_CHAIN_CALL, sp,
						0, &ri));
	/* deeper: a callee, whatever the site */
	KUNIT_EXPECT_TRUE(test, uprobe_lr_alive(&ri, RP_CHECK_CALL, sp - 0x20,
						ra, &ri));
	/* higher: gone */
	KUNIT_EXPECT_FALSE(test, uprobe_lr_alive(&ri, RP_CHECK_CALL, sp + 0x20,
						 ra + 4, &ri));
	/* returning, higher: left with longjmp; lower: a caller */
	KUNIT_EXPECT_FALSE(test, uprobe_lr_alive(&ri, RP_CHECK_RET, sp + 0x10,
						 0, &left));
	KUNIT_EXPECT_TRUE(test, uprobe_lr_alive(&ri, RP_CHECK_RET, sp - 0x10,
						0, &left));
	/*
	 * Returning at its entry sp, under a frame entered lower and left
	 * with longjmp: it is the frame returning, not a live caller.
	 */
	KUNIT_EXPECT_FALSE(test, uprobe_lr_alive(&ri, RP_CHECK_RET, sp, 0,
						 &left));
	/* under a frame returning at that sp: a caller without a frame */
	KUNIT_EXPECT_TRUE(test, uprobe_lr_alive(&ri, RP_CHECK_RET, sp, 0,
						&frameless));
	/* no other instance */
	KUNIT_EXPECT_FALSE(test, uprobe_lr_alive(&ri, RP_CHECK_RET, sp, 0,
						 NULL));
}

static struct kunit_case uprobe_ret_test_cases[] = {
	KUNIT_CASE(uprobe_ret_test_callchain),
	KUNIT_CASE(uprobe_ret_test_callchain_tail_call),
	KUNIT_CASE(uprobe_ret_test_dup),
#ifdef CONFIG_HAVE_UPROBES_ARCH_PART
	KUNIT_CASE(uprobe_ret_test_trampoline),
	KUNIT_CASE(uprobe_ret_test_pool),
	KUNIT_CASE(uprobe_ret_test_trace_in_handler),
	KUNIT_CASE(uprobe_ret_test_consumers),
	KUNIT_CASE(uprobe_ret_test_grow),
#endif
	KUNIT_CASE(uprobe_ret_test_lr_alive),
	{}
};

static struct kunit_suite uprobe_ret_test_suite = {
	.name = "uprobes_ret",
	.test_cases = uprobe_ret_test_cases,
};

kunit_test_suite(uprobe_ret_test_suite);
