/*
 * afalg-shim.c - LD_PRELOAD emulation of the Linux AF_ALG socket API
 * (family 38) in user space, backed by OpenSSL libcrypto.
 *
 * Why: BlueZ's emulated controller (btvirt, emulator/btdev.c) calls
 * bt_crypto_new() for every LE-capable controller, and that opens AF_ALG
 * sockets.  On kernels built without CONFIG_CRYPTO_USER_API_{HASH,SKCIPHER}
 * socket(AF_ALG, ...) fails with EAFNOSUPPORT and btvirt drops the client.
 *
 * What is emulated (the subset BlueZ uses, with kernel-like semantics):
 *   socket(AF_ALG, SOCK_SEQPACKET[|SOCK_CLOEXEC|SOCK_NONBLOCK], 0)
 *   bind(fd, {AF_ALG, "skcipher", "ecb(aes)"})   AES-128/192/256 ECB
 *   bind(fd, {AF_ALG, "hash",     "cmac(aes)"})  AES-CMAC
 *        (anything else: ENOENT, as the kernel answers)
 *   setsockopt(fd, SOL_ALG, ALG_SET_KEY, key, 16|24|32)
 *   accept(fd, ...) / accept4(fd, ..., flags)  -> operation fd
 *   write / send / sendto / sendmsg / writev   (MSG_MORE, cmsg ALG_SET_OP,
 *        ALG_SET_IV) on operation fds
 *   read / recv / recvfrom / recvmsg / readv   on operation fds
 *   close / dup2 / dup3                        drop table entries
 *
 * Every emulated descriptor is a real eventfd, so close(), poll() and
 * epoll behave; the eventfd counter is non-zero while a result is ready
 * (POLLIN).  Calls on any other descriptor go straight to the next
 * definition (libc) via dlsym(RTLD_NEXT, ...).
 *
 * Known deviations from the kernel: a read on an operation fd with no
 * queued input fails with EAGAIN instead of blocking; dup() of an emulated
 * fd yields a plain eventfd.
 *
 * Set AFALG_SHIM_DEBUG=1 to log every emulated call to stderr.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/if_alg.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/*
 * glibc declares the sockaddr arguments of bind/accept as transparent
 * unions under _GNU_SOURCE; SA() turns either form into a plain pointer.
 */
#ifdef __SOCKADDR_ARG
#define SA(x) (x)
#define CSA(x) (x)
#else
#define SA(x) ((x).__sockaddr__)
#define CSA(x) ((x).__sockaddr__)
#endif

#define AES_BLOCK 16
#define SKCIPHER_MAX_QUEUED (1u << 20) /* bytes of unread cipher input */

enum alg_kind { ALG_ECB_AES = 1, ALG_CMAC_AES = 2 };

/* The "transform": shared by a bound socket and the fds accepted from it. */
struct tfm {
	int refs;
	enum alg_kind kind;
	unsigned char key[32];
	size_t keylen; /* 0 = no key set */
};

struct ent {
	bool is_op;    /* false: bound/unbound parent socket; true: accept()ed */
	struct tfm *tfm; /* NULL while the parent is unbound */
	bool readable; /* eventfd counter is non-zero */

	/* skcipher operation state */
	unsigned char *in;
	size_t in_len;
	size_t in_cap;
	bool more;    /* last send had MSG_MORE */
	bool encrypt; /* ALG_OP_ENCRYPT; kernel default is decrypt */

	/* hash operation state */
	EVP_MAC_CTX *mac; /* non-NULL while a message is being hashed */
	unsigned char digest[AES_BLOCK];
	bool have_digest; /* finalized result waiting to be read */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ent **table;
static size_t table_cap;
static volatile int n_ents; /* fast path: zero means "pass everything" */
static EVP_MAC *cmac_impl;
static int debug = -1;

/* ---- real libc entry points ------------------------------------------ */

static int (*real_socket)(int, int, int);
static int (*real_bind)(int, __CONST_SOCKADDR_ARG, socklen_t);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static int (*real_accept)(int, __SOCKADDR_ARG, socklen_t *);
static int (*real_accept4)(int, __SOCKADDR_ARG, socklen_t *, int);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int,
			      __CONST_SOCKADDR_ARG, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_readv)(int, const struct iovec *, int);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, __SOCKADDR_ARG,
				socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_close)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);

#define RESOLVE(name)                                                     \
	do {                                                              \
		if (!real_##name) {                                       \
			*(void **)(&real_##name) = dlsym(RTLD_NEXT, #name); \
			if (!real_##name) {                               \
				static const char m[] =                   \
					"afalg-shim: cannot resolve " #name "\n"; \
				if (write(2, m, sizeof(m) - 1) < 0) {      \
				}                                         \
				abort();                                  \
			}                                                 \
		}                                                         \
	} while (0)

__attribute__((constructor)) static void shim_init(void)
{
	RESOLVE(socket);
	RESOLVE(bind);
	RESOLVE(setsockopt);
	RESOLVE(accept);
	RESOLVE(accept4);
	RESOLVE(write);
	RESOLVE(writev);
	RESOLVE(send);
	RESOLVE(sendto);
	RESOLVE(sendmsg);
	RESOLVE(read);
	RESOLVE(readv);
	RESOLVE(recv);
	RESOLVE(recvfrom);
	RESOLVE(recvmsg);
	RESOLVE(close);
	RESOLVE(dup2);
	RESOLVE(dup3);
}

static void dbg(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (debug < 0) {
		const char *e = getenv("AFALG_SHIM_DEBUG");
		debug = (e && *e && strcmp(e, "0") != 0) ? 1 : 0;
	}
	if (!debug)
		return;
	memcpy(buf, "afalg-shim: ", 12);
	va_start(ap, fmt);
	n = vsnprintf(buf + 12, sizeof(buf) - 13, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	n += 12;
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	buf[n++] = '\n';
	RESOLVE(write);
	if (real_write(2, buf, (size_t)n) < 0) {
	}
}

/* ---- fd table (callers hold `lock`) ------------------------------------ */

static struct ent *lookup(int fd)
{
	if (fd < 0 || (size_t)fd >= table_cap)
		return NULL;
	return table[fd];
}

static int install(int fd, struct ent *e)
{
	if ((size_t)fd >= table_cap) {
		size_t cap = table_cap ? table_cap : 64;
		struct ent **t;

		while (cap <= (size_t)fd)
			cap *= 2;
		t = realloc(table, cap * sizeof(*t));
		if (!t)
			return -1;
		memset(t + table_cap, 0, (cap - table_cap) * sizeof(*t));
		table = t;
		table_cap = cap;
	}
	table[fd] = e;
	__atomic_add_fetch(&n_ents, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void tfm_put(struct tfm *t)
{
	if (t && --t->refs == 0) {
		OPENSSL_cleanse(t->key, sizeof(t->key));
		free(t);
	}
}

static void ent_free(struct ent *e)
{
	if (!e)
		return;
	tfm_put(e->tfm);
	if (e->in) {
		OPENSSL_cleanse(e->in, e->in_cap);
		free(e->in);
	}
	EVP_MAC_CTX_free(e->mac);
	OPENSSL_cleanse(e->digest, sizeof(e->digest));
	free(e);
}

/* Detach fd from the table; returns the entry (caller frees). */
static struct ent *forget(int fd)
{
	struct ent *e = lookup(fd);

	if (e) {
		table[fd] = NULL;
		__atomic_sub_fetch(&n_ents, 1, __ATOMIC_SEQ_CST);
	}
	return e;
}

static inline bool maybe_emulated(int fd)
{
	return __atomic_load_n(&n_ents, __ATOMIC_SEQ_CST) > 0 && fd >= 0;
}

/* Keep the eventfd counter in step with "a result can be read". */
static void set_readable(int fd, struct ent *e, bool on)
{
	uint64_t v = 1;

	if (on == e->readable)
		return;
	if (on) {
		if (real_write(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
			e->readable = true;
	} else {
		if (real_read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
			e->readable = false;
	}
}

static int new_eventfd(int type_flags)
{
	int flags = 0;

	if (type_flags & SOCK_CLOEXEC)
		flags |= EFD_CLOEXEC;
	if (type_flags & SOCK_NONBLOCK)
		flags |= EFD_NONBLOCK;
	return eventfd(0, flags);
}

/* ---- crypto ------------------------------------------------------------ */

static const EVP_CIPHER *ecb_cipher(size_t keylen)
{
	switch (keylen) {
	case 16: return EVP_aes_128_ecb();
	case 24: return EVP_aes_192_ecb();
	case 32: return EVP_aes_256_ecb();
	}
	return NULL;
}

static const char *cbc_name(size_t keylen)
{
	switch (keylen) {
	case 16: return "AES-128-CBC";
	case 24: return "AES-192-CBC";
	case 32: return "AES-256-CBC";
	}
	return NULL;
}

/* AES-ECB over n (multiple of 16) bytes; 0 on success, -errno otherwise. */
static int do_ecb(const struct tfm *t, bool enc, const unsigned char *in,
		  unsigned char *out, size_t n)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int outl = 0, ok;

	if (!c)
		return -ENOMEM;
	ok = EVP_CipherInit_ex(c, ecb_cipher(t->keylen), NULL, t->key, NULL,
			       enc ? 1 : 0) &&
	     EVP_CIPHER_CTX_set_padding(c, 0) &&
	     EVP_CipherUpdate(c, out, &outl, in, (int)n) && (size_t)outl == n;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -EIO;
}

static int mac_start(struct ent *e)
{
	OSSL_PARAM params[2];

	if (!cmac_impl) {
		cmac_impl = EVP_MAC_fetch(NULL, "CMAC", NULL);
		if (!cmac_impl)
			return -ENOMEM;
	}
	e->mac = EVP_MAC_CTX_new(cmac_impl);
	if (!e->mac)
		return -ENOMEM;
	params[0] = OSSL_PARAM_construct_utf8_string(
		OSSL_MAC_PARAM_CIPHER, (char *)cbc_name(e->tfm->keylen), 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_MAC_init(e->mac, e->tfm->key, e->tfm->keylen, params)) {
		EVP_MAC_CTX_free(e->mac);
		e->mac = NULL;
		return -EIO;
	}
	return 0;
}

static int mac_finish(struct ent *e)
{
	size_t outl = 0;
	int ok;

	ok = EVP_MAC_final(e->mac, e->digest, &outl, sizeof(e->digest)) &&
	     outl == sizeof(e->digest);
	EVP_MAC_CTX_free(e->mac);
	e->mac = NULL;
	if (!ok)
		return -EIO;
	e->have_digest = true;
	return 0;
}

/* ---- operation fds: send side ------------------------------------------ */

static size_t iov_total(const struct iovec *iov, size_t cnt)
{
	size_t n = 0;

	for (size_t i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	return n;
}

/* Parse SOL_ALG control messages the way af_alg_cmsg_send() does. */
static int parse_cmsgs(const struct msghdr *msg, bool *have_op, bool *enc)
{
	struct cmsghdr *c;

	*have_op = false;
	if (!msg || !msg->msg_control || msg->msg_controllen == 0)
		return 0;
	for (c = CMSG_FIRSTHDR((struct msghdr *)msg); c;
	     c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		if (c->cmsg_level != SOL_ALG)
			continue;
		switch (c->cmsg_type) {
		case ALG_SET_OP: {
			uint32_t op;

			if (c->cmsg_len < CMSG_LEN(sizeof(op)))
				return -EINVAL;
			memcpy(&op, CMSG_DATA(c), sizeof(op));
			if (op != ALG_OP_ENCRYPT && op != ALG_OP_DECRYPT)
				return -EINVAL;
			*have_op = true;
			*enc = (op == ALG_OP_ENCRYPT);
			break;
		}
		case ALG_SET_IV: {
			uint32_t ivlen;

			if (c->cmsg_len < CMSG_LEN(sizeof(ivlen)))
				return -EINVAL;
			memcpy(&ivlen, CMSG_DATA(c), sizeof(ivlen));
			if (ivlen != 0) /* ECB has no IV */
				return -EINVAL;
			break;
		}
		case ALG_SET_AEAD_ASSOCLEN:
			if (c->cmsg_len < CMSG_LEN(sizeof(uint32_t)))
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/* Returns bytes consumed or -errno.  Caller holds the lock. */
static ssize_t op_send(int fd, struct ent *e, const struct iovec *iov,
		       size_t iovcnt, int flags, const struct msghdr *msg)
{
	size_t total = iov_total(iov, iovcnt);
	bool more = (flags & MSG_MORE) != 0;
	bool have_op = false, enc = false;
	int err;

	if (!e->is_op)
		return -EOPNOTSUPP; /* parent sockets carry no data */

	if (e->tfm->kind == ALG_CMAC_AES) {
		if (e->tfm->keylen == 0)
			return -ENOKEY;
		if (!e->mac) { /* new message (after a final or at start) */
			e->have_digest = false;
			set_readable(fd, e, false);
			err = mac_start(e);
			if (err)
				return err;
		}
		for (size_t i = 0; i < iovcnt; i++) {
			if (iov[i].iov_len &&
			    !EVP_MAC_update(e->mac, iov[i].iov_base,
					    iov[i].iov_len))
				return -EIO;
		}
		if (!more) {
			err = mac_finish(e);
			if (err)
				return err;
			set_readable(fd, e, true);
		}
		return (ssize_t)total;
	}

	/* skcipher: ecb(aes) */
	if (e->tfm->keylen == 0)
		return -ENOKEY;
	err = parse_cmsgs(msg, &have_op, &enc);
	if (err)
		return err;
	if (!e->more && e->in_len > 0)
		return -EINVAL; /* previous request not yet read out */
	if (have_op && !e->more)
		e->encrypt = enc;
	if (e->in_len + total > SKCIPHER_MAX_QUEUED)
		return -EAGAIN;
	if (e->in_len + total > e->in_cap) {
		size_t cap = e->in_cap ? e->in_cap : 64;
		unsigned char *p;

		while (cap < e->in_len + total)
			cap *= 2;
		p = malloc(cap);
		if (!p)
			return -ENOMEM;
		if (e->in) {
			memcpy(p, e->in, e->in_len);
			OPENSSL_cleanse(e->in, e->in_cap);
			free(e->in);
		}
		e->in = p;
		e->in_cap = cap;
	}
	for (size_t i = 0; i < iovcnt; i++) {
		memcpy(e->in + e->in_len, iov[i].iov_base, iov[i].iov_len);
		e->in_len += iov[i].iov_len;
	}
	e->more = more;
	if (e->in_len >= AES_BLOCK || (!more && e->in_len > 0))
		set_readable(fd, e, true);
	return (ssize_t)total;
}

/* ---- operation fds: receive side --------------------------------------- */

static void scatter(const unsigned char *src, size_t n, const struct iovec *iov,
		    size_t iovcnt)
{
	for (size_t i = 0; i < iovcnt && n; i++) {
		size_t k = iov[i].iov_len < n ? iov[i].iov_len : n;

		memcpy(iov[i].iov_base, src, k);
		src += k;
		n -= k;
	}
}

/* Returns bytes produced or -errno.  *trunc set if output was cut short. */
static ssize_t op_recv(int fd, struct ent *e, const struct iovec *iov,
		       size_t iovcnt, bool *trunc)
{
	size_t want = iov_total(iov, iovcnt);
	int err;

	*trunc = false;
	if (!e->is_op)
		return -EOPNOTSUPP;

	if (e->tfm->kind == ALG_CMAC_AES) {
		size_t n = want < AES_BLOCK ? want : AES_BLOCK;

		if (e->tfm->keylen == 0)
			return -ENOKEY;
		if (!e->have_digest) {
			/* unfinished message: finalize it; nothing sent at
			 * all: digest of the empty message (as the kernel) */
			if (!e->mac) {
				err = mac_start(e);
				if (err)
					return err;
			}
			err = mac_finish(e);
			if (err)
				return err;
		}
		scatter(e->digest, n, iov, iovcnt);
		*trunc = n < AES_BLOCK;
		e->have_digest = false;
		set_readable(fd, e, false);
		return (ssize_t)n;
	}

	/* skcipher */
	{
		size_t avail = e->in_len, n;
		unsigned char *out;

		if (avail == 0 || (e->more && avail < AES_BLOCK))
			return -EAGAIN; /* the kernel would block here */
		if (!e->more && avail % AES_BLOCK)
			return -EINVAL; /* not a whole number of blocks */
		n = (want < avail ? want : avail) / AES_BLOCK * AES_BLOCK;
		if (n == 0)
			return -EINVAL; /* buffer smaller than one block */
		out = malloc(n);
		if (!out)
			return -ENOMEM;
		err = do_ecb(e->tfm, e->encrypt, e->in, out, n);
		if (err) {
			free(out);
			return err;
		}
		scatter(out, n, iov, iovcnt);
		OPENSSL_cleanse(out, n);
		free(out);
		memmove(e->in, e->in + n, e->in_len - n);
		e->in_len -= n;
		if (e->in_len == 0 || (e->more && e->in_len < AES_BLOCK))
			set_readable(fd, e, false);
		return (ssize_t)n;
	}
}

/* ---- interposed entry points ------------------------------------------- */

#define FAIL(err)                  \
	do {                       \
		errno = (err);     \
		return -1;         \
	} while (0)

int socket(int domain, int type, int protocol)
{
	struct ent *e;
	int fd;

	RESOLVE(socket);
	if (domain != AF_ALG)
		return real_socket(domain, type, protocol);

	if ((type & ~(SOCK_CLOEXEC | SOCK_NONBLOCK)) != SOCK_SEQPACKET)
		FAIL(ESOCKTNOSUPPORT);
	if (protocol != 0)
		FAIL(EPROTONOSUPPORT);
	e = calloc(1, sizeof(*e));
	if (!e)
		FAIL(ENOMEM);
	fd = new_eventfd(type);
	if (fd < 0) {
		int saved = errno;

		free(e);
		FAIL(saved);
	}
	pthread_mutex_lock(&lock);
	if (install(fd, e) < 0) {
		pthread_mutex_unlock(&lock);
		free(e);
		RESOLVE(close);
		real_close(fd);
		FAIL(ENOMEM);
	}
	pthread_mutex_unlock(&lock);
	dbg("socket(AF_ALG, %#x, %d) = %d", type, protocol, fd);
	return fd;
}

int bind(int fd, __CONST_SOCKADDR_ARG addr_arg, socklen_t len)
{
	const struct sockaddr *addr = CSA(addr_arg);
	struct sockaddr_alg sa;
	enum alg_kind kind;
	struct ent *e;
	struct tfm *t;

	RESOLVE(bind);
	if (!maybe_emulated(fd))
		return real_bind(fd, addr_arg, len);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	if (!e) {
		pthread_mutex_unlock(&lock);
		return real_bind(fd, addr_arg, len);
	}
	if (e->is_op || !addr || len < (socklen_t)sizeof(sa)) {
		pthread_mutex_unlock(&lock);
		FAIL(EINVAL);
	}
	memcpy(&sa, addr, sizeof(sa));
	sa.salg_type[sizeof(sa.salg_type) - 1] = 0;
	sa.salg_name[sizeof(sa.salg_name) - 1] = 0;
	if (sa.salg_family != AF_ALG) {
		pthread_mutex_unlock(&lock);
		FAIL(EINVAL);
	}
	if (!strcmp((char *)sa.salg_type, "skcipher") &&
	    !strcmp((char *)sa.salg_name, "ecb(aes)"))
		kind = ALG_ECB_AES;
	else if (!strcmp((char *)sa.salg_type, "hash") &&
		 !strcmp((char *)sa.salg_name, "cmac(aes)"))
		kind = ALG_CMAC_AES;
	else {
		pthread_mutex_unlock(&lock);
		dbg("bind(%d, %s/%s) = ENOENT", fd, sa.salg_type, sa.salg_name);
		FAIL(ENOENT);
	}
	if (e->tfm && e->tfm->refs > 1) {
		pthread_mutex_unlock(&lock);
		FAIL(EBUSY); /* operation fds still use the old transform */
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		pthread_mutex_unlock(&lock);
		FAIL(ENOMEM);
	}
	t->refs = 1;
	t->kind = kind;
	tfm_put(e->tfm);
	e->tfm = t;
	pthread_mutex_unlock(&lock);
	dbg("bind(%d, %s/%s) = 0", fd, sa.salg_type, sa.salg_name);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct ent *e;

	RESOLVE(setsockopt);
	if (!maybe_emulated(fd))
		return real_setsockopt(fd, level, name, val, len);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	if (!e) {
		pthread_mutex_unlock(&lock);
		return real_setsockopt(fd, level, name, val, len);
	}
	if (e->is_op) {
		pthread_mutex_unlock(&lock);
		FAIL(EOPNOTSUPP);
	}
	if (level != SOL_ALG || name != ALG_SET_KEY || !e->tfm) {
		pthread_mutex_unlock(&lock);
		FAIL(ENOPROTOOPT);
	}
	if (!val || (len != 16 && len != 24 && len != 32)) {
		pthread_mutex_unlock(&lock);
		FAIL(EINVAL);
	}
	memcpy(e->tfm->key, val, len);
	e->tfm->keylen = len;
	pthread_mutex_unlock(&lock);
	dbg("setsockopt(%d, SOL_ALG, ALG_SET_KEY, %u bytes) = 0", fd,
	    (unsigned)len);
	return 0;
}

static int do_accept(int fd, int flags)
{
	struct ent *e, *op;
	int nfd;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		FAIL(EINVAL);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	if (!e) { /* closed by another thread meanwhile */
		pthread_mutex_unlock(&lock);
		FAIL(EBADF);
	}
	if (!e->tfm) {
		pthread_mutex_unlock(&lock);
		FAIL(EINVAL); /* not bound */
	}
	if (e->is_op && e->tfm->kind != ALG_CMAC_AES) {
		pthread_mutex_unlock(&lock);
		FAIL(EINVAL);
	}
	if (!e->is_op && e->tfm->kind == ALG_ECB_AES && e->tfm->keylen == 0) {
		pthread_mutex_unlock(&lock);
		FAIL(ENOKEY); /* skcipher needs the key before accept */
	}
	op = calloc(1, sizeof(*op));
	if (!op) {
		pthread_mutex_unlock(&lock);
		FAIL(ENOMEM);
	}
	op->is_op = true;
	op->tfm = e->tfm;
	op->tfm->refs++;
	if (e->is_op && e->mac) { /* accept on a hash op fd clones state */
		op->mac = EVP_MAC_CTX_dup(e->mac);
		if (!op->mac) {
			pthread_mutex_unlock(&lock);
			ent_free(op);
			FAIL(ENOMEM);
		}
	}
	nfd = new_eventfd(flags);
	if (nfd < 0 || install(nfd, op) < 0) {
		int saved = nfd < 0 ? errno : ENOMEM;

		pthread_mutex_unlock(&lock);
		if (nfd >= 0)
			real_close(nfd);
		ent_free(op);
		FAIL(saved);
	}
	pthread_mutex_unlock(&lock);
	dbg("accept(%d) = %d", fd, nfd);
	return nfd;
}

static bool is_emulated(int fd)
{
	bool r;

	if (!maybe_emulated(fd))
		return false;
	pthread_mutex_lock(&lock);
	r = lookup(fd) != NULL;
	pthread_mutex_unlock(&lock);
	return r;
}

int accept(int fd, __SOCKADDR_ARG addr, socklen_t *len)
{
	RESOLVE(accept);
	RESOLVE(close);
	if (!is_emulated(fd))
		return real_accept(fd, addr, len);
	return do_accept(fd, 0);
}

int accept4(int fd, __SOCKADDR_ARG addr, socklen_t *len, int flags)
{
	RESOLVE(accept4);
	RESOLVE(close);
	if (!is_emulated(fd))
		return real_accept4(fd, addr, len, flags);
	return do_accept(fd, flags);
}

/* Common send path; returns -2 if fd is not emulated. */
static ssize_t emu_send(int fd, const struct iovec *iov, size_t iovcnt,
			int flags, const struct msghdr *msg, bool *handled)
{
	struct ent *e;
	ssize_t r;

	*handled = false;
	if (!maybe_emulated(fd))
		return 0;
	RESOLVE(write);
	RESOLVE(read);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	if (!e) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	*handled = true;
	r = op_send(fd, e, iov, iovcnt, flags, msg);
	pthread_mutex_unlock(&lock);
	dbg("send(%d, %zu bytes, flags %#x%s) = %zd", fd, iov_total(iov, iovcnt),
	    flags, msg && msg->msg_controllen ? ", cmsg" : "", r);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

static ssize_t emu_recv(int fd, const struct iovec *iov, size_t iovcnt,
			bool *trunc, bool *handled)
{
	struct ent *e;
	ssize_t r;

	*handled = false;
	*trunc = false;
	if (!maybe_emulated(fd))
		return 0;
	RESOLVE(write);
	RESOLVE(read);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	if (!e) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	*handled = true;
	r = op_recv(fd, e, iov, iovcnt, trunc);
	pthread_mutex_unlock(&lock);
	dbg("recv(%d, %zu bytes) = %zd", fd, iov_total(iov, iovcnt), r);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	struct iovec iov = { (void *)buf, n };
	bool handled;
	ssize_t r = emu_send(fd, &iov, 1, 0, NULL, &handled);

	if (handled)
		return r;
	RESOLVE(write);
	return real_write(fd, buf, n);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	bool handled;
	ssize_t r;

	if (cnt < 0) {
		RESOLVE(writev);
		return real_writev(fd, iov, cnt);
	}
	r = emu_send(fd, iov, (size_t)cnt, 0, NULL, &handled);
	if (handled)
		return r;
	RESOLVE(writev);
	return real_writev(fd, iov, cnt);
}

ssize_t send(int fd, const void *buf, size_t n, int flags)
{
	struct iovec iov = { (void *)buf, n };
	bool handled;
	ssize_t r = emu_send(fd, &iov, 1, flags, NULL, &handled);

	if (handled)
		return r;
	RESOLVE(send);
	return real_send(fd, buf, n, flags);
}

ssize_t sendto(int fd, const void *buf, size_t n, int flags,
	       __CONST_SOCKADDR_ARG addr, socklen_t alen)
{
	struct iovec iov = { (void *)buf, n };
	bool handled;
	ssize_t r = emu_send(fd, &iov, 1, flags, NULL, &handled);

	if (handled)
		return r;
	RESOLVE(sendto);
	return real_sendto(fd, buf, n, flags, addr, alen);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	bool handled;
	ssize_t r;

	if (!msg) {
		RESOLVE(sendmsg);
		return real_sendmsg(fd, msg, flags);
	}
	r = emu_send(fd, msg->msg_iov, msg->msg_iovlen, flags, msg, &handled);
	if (handled)
		return r;
	RESOLVE(sendmsg);
	return real_sendmsg(fd, msg, flags);
}

ssize_t read(int fd, void *buf, size_t n)
{
	struct iovec iov = { buf, n };
	bool handled, trunc;
	ssize_t r = emu_recv(fd, &iov, 1, &trunc, &handled);

	if (handled)
		return r;
	RESOLVE(read);
	return real_read(fd, buf, n);
}

/* Fortified callers (-D_FORTIFY_SOURCE) reach read() through these. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	if (n > buflen)
		abort();
	return read(fd, buf, n);
}

ssize_t readv(int fd, const struct iovec *iov, int cnt)
{
	bool handled, trunc;
	ssize_t r;

	if (cnt < 0) {
		RESOLVE(readv);
		return real_readv(fd, iov, cnt);
	}
	r = emu_recv(fd, iov, (size_t)cnt, &trunc, &handled);
	if (handled)
		return r;
	RESOLVE(readv);
	return real_readv(fd, iov, cnt);
}

ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	struct iovec iov = { buf, n };
	bool handled, trunc;
	ssize_t r = emu_recv(fd, &iov, 1, &trunc, &handled);

	if (handled)
		return r;
	RESOLVE(recv);
	return real_recv(fd, buf, n, flags);
}

ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags)
{
	if (n > buflen)
		abort();
	return recv(fd, buf, n, flags);
}

ssize_t recvfrom(int fd, void *buf, size_t n, int flags, __SOCKADDR_ARG addr,
		 socklen_t *alen)
{
	struct iovec iov = { buf, n };
	bool handled, trunc;
	ssize_t r = emu_recv(fd, &iov, 1, &trunc, &handled);

	if (handled) {
		if (r >= 0 && alen)
			*alen = 0;
		return r;
	}
	RESOLVE(recvfrom);
	return real_recvfrom(fd, buf, n, flags, addr, alen);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	bool handled, trunc;
	ssize_t r;

	if (!msg) {
		RESOLVE(recvmsg);
		return real_recvmsg(fd, msg, flags);
	}
	r = emu_recv(fd, msg->msg_iov, msg->msg_iovlen, &trunc, &handled);
	if (handled) {
		if (r >= 0) {
			msg->msg_flags = trunc ? MSG_TRUNC : 0;
			msg->msg_controllen = 0;
			msg->msg_namelen = 0;
		}
		return r;
	}
	RESOLVE(recvmsg);
	return real_recvmsg(fd, msg, flags);
}

int close(int fd)
{
	RESOLVE(close);
	if (maybe_emulated(fd)) {
		struct ent *e;

		pthread_mutex_lock(&lock);
		e = forget(fd);
		ent_free(e);
		pthread_mutex_unlock(&lock);
		if (e)
			dbg("close(%d)", fd);
	}
	return real_close(fd);
}

/* dup2/dup3 onto an emulated fd number silently close it: forget it. */
static void drop_target(int oldfd, int newfd)
{
	if (oldfd != newfd && maybe_emulated(newfd)) {
		pthread_mutex_lock(&lock);
		ent_free(forget(newfd));
		pthread_mutex_unlock(&lock);
	}
}

int dup2(int oldfd, int newfd)
{
	int r;

	RESOLVE(dup2);
	r = real_dup2(oldfd, newfd);
	if (r >= 0)
		drop_target(oldfd, newfd);
	return r;
}

int dup3(int oldfd, int newfd, int flags)
{
	int r;

	RESOLVE(dup3);
	r = real_dup3(oldfd, newfd, flags);
	if (r >= 0)
		drop_target(oldfd, newfd);
	return r;
}
