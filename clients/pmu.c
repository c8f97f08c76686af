// SPDX-License-Identifier: GPL-2.0
/*
 * "pmu TARGET N ENTRY_OFF [SEM_OFF USDT_OFF]": runs "TARGET N" with
 * counting events of the uprobe PMU opened directly with
 * perf_event_open(), bound to the child: an entry and a return probe at
 * ENTRY_OFF, and, with SEM_OFF, a probe at USDT_OFF counted in the USDT
 * semaphore at SEM_OFF (ref_ctr_offset). Prints the target's output line
 * and "entry=E return=R usdt=U".
 */
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
	int t = -1;

	if (f) {
		if (fscanf(f, "%d", &t) != 1)
			t = -1;
		fclose(f);
	}
	return t;
}

static int open_probe(const char *path, unsigned long off, int ret,
		      unsigned long sem, pid_t pid)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = pmu_type();
	/* format/retprobe: config:0, format/ref_ctr_offset: config:32-63 */
	a.config = (ret ? 1 : 0) | (sem << 32);
	a.config1 = (unsigned long)path;
	a.config2 = off;
	a.disabled = 1;
	a.enable_on_exec = 1;
	return syscall(__NR_perf_event_open, &a, pid, -1, -1, 0);
}

int main(int argc, char **argv)
{
	long long n[3] = { 0, 0, 0 };
	int go[2], fd[3] = { -1, -1, -1 }, i, status;
	char c;
	pid_t pid;

	if (argc < 4)
		return 2;
	if (pipe(go))
		return 2;
	pid = fork();
	if (!pid) {
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		execl(argv[1], argv[1], argv[2], (char *)NULL);
		_exit(127);
	}
	fd[0] = open_probe(argv[1], strtoul(argv[3], NULL, 0), 0, 0, pid);
	fd[1] = open_probe(argv[1], strtoul(argv[3], NULL, 0), 1, 0, pid);
	if (argc > 5)
		fd[2] = open_probe(argv[1], strtoul(argv[5], NULL, 0), 0,
				   strtoul(argv[4], NULL, 0), pid);
	if (fd[0] < 0 || fd[1] < 0 || (argc > 5 && fd[2] < 0)) {
		perror("perf_event_open");
		kill(pid, 9);
		return 1;
	}
	if (write(go[1], "g", 1) != 1)
		return 1;
	waitpid(pid, &status, 0);
	for (i = 0; i < 3; i++)
		if (fd[i] >= 0 && read(fd[i], &n[i], sizeof(n[i])) != sizeof(n[i]))
			n[i] = -1;
	printf("entry=%lld return=%lld usdt=%lld\n", n[0], n[1], n[2]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
