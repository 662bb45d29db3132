/* Debian's libcbor (libcbor-dev, 0.8): the streaming decoder (one data item's head per call, reported through
   callbacks, so that the Swift side builds the value with its own limits and libcbor never builds a tree) and the
   encoders of data item heads (each writes the shortest head for an argument, RFC 8949 §4.2.1). */
#include <cbor.h>
