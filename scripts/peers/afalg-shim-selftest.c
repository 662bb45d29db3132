/*
 * afalg-shim-selftest.c - exercises the AF_ALG socket API the way BlueZ's
 * src/shared/crypto.c does (socket/bind/setsockopt(ALG_SET_KEY)/accept,
 * sendmsg with an ALG_SET_OP control message + read for "ecb(aes)",
 * send + read for "cmac(aes)") and checks known-answer vectors:
 *
 *   FIPS-197 Appendix C.1 (AES-128) and RFC 4493 section 4 (AES-CMAC,
 *   messages of 0, 16, 40 and 64 bytes).
 *
 * Run it under LD_PRELOAD=libafalg-shim.so on kernels without AF_ALG (or
 * without the preload on kernels that have it: the results must agree).
 * Prints "afalg-shim: N passed, M failed"; exits 1 if anything failed.
 * A second line reports kernel-compatibility checks of error paths and
 * incremental use (MSG_MORE, poll, decrypt, pass-through of other fds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_alg.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

static int failed;

static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;

	while (s[0] && s[1]) {
		unsigned v;

		if (s[0] == ' ') {
			s++;
			continue;
		}
		sscanf(s, "%2x", &v);
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

static void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

static int alg_socket(const char *type, const char *name)
{
	struct sockaddr_alg sa;
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	strcpy((char *)sa.salg_type, type);
	strcpy((char *)sa.salg_name, name);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int alg_op(int fd, const uint8_t *key, size_t keylen)
{
	if (setsockopt(fd, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen) < 0)
		return -1;
	return accept(fd, NULL, 0);
}

/* sendmsg() carrying ALG_SET_OP, as BlueZ's alg_encrypt() does. */
static ssize_t send_with_op(int op, const uint8_t *in, size_t n, uint32_t dir,
			    int flags)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t))];
	struct msghdr msg;
	struct cmsghdr *c;
	struct iovec iov = { (void *)in, n };

	memset(cbuf, 0, sizeof(cbuf));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &dir, sizeof(dir));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	return sendmsg(op, &msg, flags);
}

static bool ecb_encrypt(const uint8_t key[16], const uint8_t in[16],
			uint8_t out[16])
{
	int fd = alg_socket("skcipher", "ecb(aes)"), op;
	bool ok;

	if (fd < 0)
		return false;
	op = alg_op(fd, key, 16);
	if (op < 0) {
		close(fd);
		return false;
	}
	ok = send_with_op(op, in, 16, ALG_OP_ENCRYPT, 0) == 16 &&
	     read(op, out, 16) == 16;
	close(op);
	close(fd);
	return ok;
}

static bool cmac(const uint8_t key[16], const uint8_t *m, size_t n,
		 uint8_t out[16])
{
	int fd = alg_socket("hash", "cmac(aes)"), op;
	bool ok;

	if (fd < 0)
		return false;
	op = alg_op(fd, key, 16);
	if (op < 0) {
		close(fd);
		return false;
	}
	ok = send(op, m, n, 0) == (ssize_t)n && read(op, out, 16) == 16;
	close(op);
	close(fd);
	return ok;
}

static void check(int *pass, int *fail, const char *name, bool ok,
		  const uint8_t *got, const uint8_t *want, size_t n)
{
	char g[65], w[65];

	if (ok && (!want || memcmp(got, want, n) == 0)) {
		(*pass)++;
		return;
	}
	(*fail)++;
	failed = 1;
	if (!ok) {
		printf("FAIL %s: AF_ALG call failed: %s\n", name,
		       strerror(errno));
	} else {
		hex(got, n, g);
		hex(want, n, w);
		printf("FAIL %s: got %s want %s\n", name, g, w);
	}
}

int main(void)
{
	static const char *rfc_key = "2b7e151628aed2a6abf7158809cf4f3c";
	static const char *rfc_msg =
		"6bc1bee22e409f96e93d7e117393172a"
		"ae2d8a571e03ac9c9eb76fac45af8e51"
		"30c81c46a35ce411e5fbc1191a0a52ef"
		"f69f2445df4f9b17ad2b417be66c3710";
	static const struct {
		const char *name;
		size_t len;
		const char *tag;
	} cmac_vec[] = {
		{ "RFC 4493 AES-CMAC, empty", 0,
		  "bb1d6929e95937287fa37d129b756746" },
		{ "RFC 4493 AES-CMAC, 16 bytes", 16,
		  "070a16b46b4d4144f79bdd9dd04a287c" },
		{ "RFC 4493 AES-CMAC, 40 bytes", 40,
		  "dfa66747de9ae63030ca32611497c827" },
		{ "RFC 4493 AES-CMAC, 64 bytes", 64,
		  "51f0bebf7e3b9d92fc49741779363cfe" },
	};
	uint8_t key[32], pt[16], ct[16], out[16], msg[64], tag[16];
	int pass = 0, fail = 0, xpass = 0, xfail = 0;

	/* FIPS-197 Appendix C.1 */
	unhex("000102030405060708090a0b0c0d0e0f", key);
	unhex("00112233445566778899aabbccddeeff", pt);
	unhex("69c4e0d86a7b0430d8cdb78070b4c55a", ct);
	check(&pass, &fail, "FIPS-197 C.1 AES-128 ECB",
	      ecb_encrypt(key, pt, out), out, ct, 16);

	unhex(rfc_key, key);
	unhex(rfc_msg, msg);
	for (size_t i = 0; i < sizeof(cmac_vec) / sizeof(cmac_vec[0]); i++) {
		unhex(cmac_vec[i].tag, tag);
		check(&pass, &fail, cmac_vec[i].name,
		      cmac(key, msg, cmac_vec[i].len, out), out, tag, 16);
	}
	printf("afalg-shim: %d passed, %d failed\n", pass, fail);

	/* ---- kernel-compatible behaviour beyond the vectors ---- */
	{
		/* unknown algorithm: ENOENT on bind */
		int fd = alg_socket("skcipher", "no-such(alg)");

		check(&xpass, &xfail, "bind unknown algorithm -> ENOENT",
		      fd < 0 && errno == ENOENT, NULL, NULL, 0);
		if (fd >= 0)
			close(fd);
	}
	{
		/* skcipher accept without a key: ENOKEY */
		int fd = alg_socket("skcipher", "ecb(aes)");
		int op = fd >= 0 ? accept(fd, NULL, 0) : -1;

		check(&xpass, &xfail, "skcipher accept before key -> ENOKEY",
		      fd >= 0 && op < 0 && errno == ENOKEY, NULL, NULL, 0);
		if (op >= 0)
			close(op);
		if (fd >= 0)
			close(fd);
	}
	{
		/* CMAC fed in pieces with MSG_MORE, POLLIN once final */
		int fd = alg_socket("hash", "cmac(aes)");
		int op = fd >= 0 ? alg_op(fd, key, 16) : -1;
		struct pollfd p = { op, POLLIN, 0 };
		bool ok = op >= 0 && send(op, msg, 10, MSG_MORE) == 10 &&
			  poll(&p, 1, 0) == 0 &&
			  send(op, msg + 10, 30, MSG_MORE) == 30 &&
			  send(op, msg + 30 + 10, 24, 0) == 24 &&
			  poll(&p, 1, 0) == 1 && (p.revents & POLLIN) &&
			  read(op, out, 16) == 16;

		unhex(cmac_vec[3].tag, tag);
		check(&xpass, &xfail, "CMAC incremental (MSG_MORE) + poll", ok,
		      out, tag, 16);
		if (op >= 0)
			close(op);
		if (fd >= 0)
			close(fd);
	}
	{
		/* two-block ECB encrypt then decrypt (write = default op) */
		int fd = alg_socket("skcipher", "ecb(aes)");
		int op = fd >= 0 ? alg_op(fd, key, 16) : -1;
		uint8_t two[32], enc[32], dec[32];
		bool ok;

		memcpy(two, msg, 32);
		ok = op >= 0 &&
		     send_with_op(op, two, 32, ALG_OP_ENCRYPT, 0) == 32 &&
		     read(op, enc, 32) == 32 &&
		     send_with_op(op, enc, 32, ALG_OP_DECRYPT, 0) == 32 &&
		     read(op, dec, 32) == 32;
		check(&xpass, &xfail, "ECB 2-block encrypt/decrypt round trip",
		      ok, dec, two, 32);
		if (op >= 0)
			close(op);
		if (fd >= 0)
			close(fd);
	}
	{
		/* non-AF_ALG descriptors pass straight through */
		int sv[2];
		char buf[8] = { 0 };
		bool ok = socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 &&
			  write(sv[0], "ping", 4) == 4 &&
			  read(sv[1], buf, sizeof(buf)) == 4 &&
			  memcmp(buf, "ping", 4) == 0;

		check(&xpass, &xfail, "pass-through of AF_UNIX socketpair", ok,
		      NULL, NULL, 0);
		close(sv[0]);
		close(sv[1]);
	}
	printf("afalg-shim: compatibility checks: %d passed, %d failed\n",
	       xpass, xfail);
	return failed ? 1 : 0;
}
