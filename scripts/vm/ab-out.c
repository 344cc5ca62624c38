// SPDX-License-Identifier: GPL-2.0-only
/*
 * ab-out - the embedded kernel's output channel: copies its standard input
 * to I/O port 0xe9, which qemu's isa-debugcon device hands to the host
 * (scripts/vm/vm-run.sh). No interrupt is involved: a serial port was
 * tried first, and qemu's 16550 raises a transmit interrupt for every byte,
 * so on PREEMPT_RT (forced threaded IRQs) a command printing ~100 KB made
 * the spurious-IRQ detector disable the port ("irq 3: nobody cared").
 * Exit status: 0 at end of input, 1 when the port cannot be reached
 * (ioperm needs CAP_SYS_RAWIO) or input fails.
 *
 * ab-out --credit HEX - the guest's init seeds the kernel's random pool
 * with the bytes HEX spells (vm-run.sh's allocbench.rng=, up to 64
 * bytes), credited in full (RNDADDENTROPY, random(4)): the crng is then
 * ready at once, as where a boot loader or RDRAND seeds it, instead of
 * after 1-3 s of jitter entropy under TCG. Exit status 0, or 1 with a
 * line on stderr (not root, HEX not an even run of hex digits).
 */
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define AB_DEBUGCON_PORT 0xe9
#define AB_CREDIT_MAX	 64

static int credit(const char *hex)
{
	struct {
		struct rand_pool_info info;
		unsigned char buf[AB_CREDIT_MAX];
	} p;
	size_t i, n = strlen(hex) / 2;
	unsigned int byte;
	int fd, ret;

	if (!n || n > AB_CREDIT_MAX || strlen(hex) % 2 ||
	    strspn(hex, "0123456789abcdefABCDEF") != strlen(hex)) {
		fprintf(stderr,
			"ab-out: --credit %.80s: allowed 2 to %d hex digits, an even number\n",
			hex, 2 * AB_CREDIT_MAX);
		return 1;
	}
	for (i = 0; i < n; i++) {
		sscanf(hex + 2 * i, "%2x", &byte);
		p.buf[i] = (unsigned char)byte;
	}
	p.info.entropy_count = (int)(8 * n);
	p.info.buf_size = (int)n;
	fd = open("/dev/urandom", O_WRONLY);
	if (fd < 0) {
		perror("ab-out: /dev/urandom");
		return 1;
	}
	ret = ioctl(fd, RNDADDENTROPY, &p.info);
	if (ret)
		perror("ab-out: RNDADDENTROPY");
	close(fd);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned char buf[4096];
	ssize_t n;

	if (argc == 3 && !strcmp(argv[1], "--credit"))
		return credit(argv[2]);
	if (ioperm(AB_DEBUGCON_PORT, 1, 1)) {
		perror("ab-out: ioperm(0xe9)");
		return 1;
	}
	while ((n = read(0, buf, sizeof(buf))) > 0)
		outsb(AB_DEBUGCON_PORT, buf, (unsigned long)n);
	return n < 0;
}
