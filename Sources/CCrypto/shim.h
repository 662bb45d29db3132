/* OpenSSL 3's libcrypto, for BluetoothCrypto: the EVP cipher, MAC and key APIs, the P-256 group and its
   points (to compute a public key from a given private key and to check a peer's point), parameter
   building, the random generator and the error queue; PEM and DER public keys (SubjectPublicKeyInfo) and
   signature verification (ECDSA, Ed25519) for MCUboot images. Only OpenSSL 3 calls that are not deprecated are used. */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>

/* EVP_PKEY_fromdata's selections are macros Swift does not import (an OR of other macros). */
static const int CCRYPTO_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;
static const int CCRYPTO_EVP_PKEY_KEYPAIR = EVP_PKEY_KEYPAIR;

/* Names libcrypto may keep a pointer to after the call that takes them (EVP_PKEY_CTX_new_from_name keeps its
   key type; OSSL_PARAM_BLD keeps keys and strings until OSSL_PARAM_BLD_to_param, and its OSSL_PARAMs keep
   the keys): static C strings, so that Swift never hands libcrypto a temporary copy of a String. */
static const char *const CCRYPTO_KEY_TYPE_EC = "EC";
static const char *const CCRYPTO_GROUP_P256 = "P-256";
static const char *const CCRYPTO_PARAM_GROUP_NAME = OSSL_PKEY_PARAM_GROUP_NAME;
static const char *const CCRYPTO_PARAM_PUB_KEY = OSSL_PKEY_PARAM_PUB_KEY;
static const char *const CCRYPTO_PARAM_PRIV_KEY = OSSL_PKEY_PARAM_PRIV_KEY;
static const char *const CCRYPTO_MAC_CMAC = "CMAC";
static const char *const CCRYPTO_PARAM_CIPHER = OSSL_MAC_PARAM_CIPHER;
static const char *const CCRYPTO_CIPHER_AES_128_CBC = "AES-128-CBC";
