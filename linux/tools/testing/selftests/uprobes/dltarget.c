// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic probe target for the dlopen() tests.  Prints "ready", then obeys:
 *   load PATH   dlopen(PATH), print "loaded ADDR" (run-time lib_func address)
 *   call N      call lib_func(i) for i < N, print "sum S"
 *   unload      dlclose() the library, print "unloaded"
 *   quit        exit(0)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	long (*func)(long) = NULL;
	char line[512], path[400];
	void *handle = NULL;
	long n, i;

	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) && strncmp(line, "quit", 4)) {
		if (sscanf(line, "load %399s", path) == 1) {
			handle = dlopen(path, RTLD_NOW);
			func = handle ? dlsym(handle, "lib_func") : NULL;
			if (func)
				printf("loaded %lx\n", (unsigned long)func);
			else
				printf("error %s\n", dlerror());
		} else if (sscanf(line, "call %ld", &n) == 1 && func) {
			long long sum = 0;

			for (i = 0; i < n; i++)
				sum += func(i);
			printf("sum %lld\n", sum);
		} else if (!strncmp(line, "unload", 6) && handle) {
			dlclose(handle);
			handle = NULL;
			func = NULL;
			printf("unloaded\n");
		} else {
			printf("error bad command\n");
		}
		fflush(stdout);
	}
	return 0;
}
