/*
 * cusci/dlpack.h: DLPack export and import of cusci arrays, zero copy.
 *
 * The structs below are laid out as DLPack 1.0 lays out DLDevice,
 * DLDataType, DLTensor, DLManagedTensor and DLManagedTensorVersioned
 * (https://dmlc.github.io/dlpack/latest/), field for field, so that a
 * pointer to one may be cast to a pointer to the other. Their names carry
 * cusci's prefix so that this header can be included next to a program's
 * own dlpack.h. Like core.h, it includes no CUDA header.
 *
 * Ownership follows DLPack: whoever holds a managed tensor calls its
 * deleter once, when done with it (a NULL deleter means there is nothing
 * to release).
 *
 * Streams follow the array API's __dlpack__(stream=...): the data is
 * ready on the producer's stream; when the consumer's stream differs, the
 * producer's stream is given an event and the consumer's stream waits on
 * it, without blocking the host. A stream is a cudaStream_t as void *:
 * NULL is CUDA's default stream, CUSCI_DL_STREAM_LEGACY (1) and
 * CUSCI_DL_STREAM_PER_THREAD (2) are CUDA's cudaStreamLegacy and
 * cudaStreamPerThread, and CUSCI_DL_STREAM_NONE (-1) asks for no
 * synchronisation at all. A host context accepts only NULL and
 * CUSCI_DL_STREAM_NONE.
 */
#ifndef CUSCI_DLPACK_H
#define CUSCI_DLPACK_H

#include <stdint.h>

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The DLPack version these structs follow (DLPACK_MAJOR_VERSION, ...). */
#define CUSCI_DL_MAJOR_VERSION 1
#define CUSCI_DL_MINOR_VERSION 0

/* DLManagedTensorVersioned's flags (DLPACK_FLAG_BITMASK_*). */
#define CUSCI_DL_FLAG_READ_ONLY ((uint64_t)1 << 0)
#define CUSCI_DL_FLAG_IS_COPIED ((uint64_t)1 << 1)

/* Streams with a meaning of their own (see above). */
#define CUSCI_DL_STREAM_NONE ((void *)(intptr_t)-1)
#define CUSCI_DL_STREAM_LEGACY ((void *)(intptr_t)1)
#define CUSCI_DL_STREAM_PER_THREAD ((void *)(intptr_t)2)

/* DLDeviceType: the values DLPack gives them. */
enum {
  CUSCI_DL_CPU = 1,
  CUSCI_DL_CUDA = 2,
  CUSCI_DL_CUDA_HOST = 3,
  CUSCI_DL_OPENCL = 4,
  CUSCI_DL_VULKAN = 7,
  CUSCI_DL_METAL = 8,
  CUSCI_DL_VPI = 9,
  CUSCI_DL_ROCM = 10,
  CUSCI_DL_ROCM_HOST = 11,
  CUSCI_DL_EXT_DEV = 12,
  CUSCI_DL_CUDA_MANAGED = 13,
  CUSCI_DL_ONEAPI = 14
};

/* DLDataTypeCode. */
enum {
  CUSCI_DL_INT = 0,
  CUSCI_DL_UINT = 1,
  CUSCI_DL_FLOAT = 2,
  CUSCI_DL_OPAQUE_HANDLE = 3,
  CUSCI_DL_BFLOAT = 4,
  CUSCI_DL_COMPLEX = 5,
  CUSCI_DL_BOOL = 6
};

/* DLPackVersion. */
typedef struct cusci_dl_version {
  uint32_t major;
  uint32_t minor;
} cusci_dl_version;

/* DLDevice: device_type is one of CUSCI_DL_CPU, ... (a C enum, 32 bits). */
typedef struct cusci_dl_device {
  int32_t device_type;
  int32_t device_id;
} cusci_dl_device;

/* DLDataType: code, bits per lane, lanes (1 for every cusci dtype). */
typedef struct cusci_dl_data_type {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} cusci_dl_data_type;

/* DLTensor: shape and strides count elements; strides NULL is C order. */
typedef struct cusci_dl_tensor {
  void *data;
  cusci_dl_device device;
  int32_t ndim;
  cusci_dl_data_type dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} cusci_dl_tensor;

/* DLManagedTensor, the legacy (unversioned) form. */
typedef struct cusci_dl_managed_tensor {
  cusci_dl_tensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct cusci_dl_managed_tensor *self);
} cusci_dl_managed_tensor;

/* DLManagedTensorVersioned. */
typedef struct cusci_dl_managed_tensor_versioned {
  cusci_dl_version version;
  void *manager_ctx;
  void (*deleter)(struct cusci_dl_managed_tensor_versioned *self);
  uint64_t flags;
  cusci_dl_tensor dl_tensor;
} cusci_dl_managed_tensor_versioned;

/*
 * Export `a` (on ctx's device) as a DLPack tensor over the same memory:
 * the array API's a.__dlpack__(stream=stream), with `stream` the
 * consumer's (see above). The tensor holds a reference to `a`, so the
 * memory stays alive until the consumer calls (*out)->deleter(*out), which
 * releases it and frees the tensor. Shape and strides are a's, in elements;
 * byte_offset is 0; a GPU array is kDLCUDA with the context's device, a
 * host array kDLCPU. The versioned form has version 1.0 and flags 0.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE (a on another
 * device), CUSCI_ERR_INVALID_ARGUMENT (a stream other than NULL or
 * CUSCI_DL_STREAM_NONE on a host context), CUSCI_ERR_OUT_OF_MEMORY,
 * CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_array_to_dlpack_versioned(cusci_ctx *ctx, cusci_array *a, void *stream,
                                                       cusci_dl_managed_tensor_versioned **out);
CUSCI_API cusci_status cusci_array_to_dlpack(cusci_ctx *ctx, cusci_array *a, void *stream,
                                             cusci_dl_managed_tensor **out);

/*
 * numpy.from_dlpack for a managed tensor `t`: a new array on ctx's device
 * that shares t's memory (data + byte_offset, t's shape, strides in
 * elements or NULL for C order). `stream` is the producer's stream, on
 * which t's data is ready; when it differs from the context's stream, the
 * context's stream waits for it. On success cusci owns `t` and calls its
 * deleter exactly once, when the last array sharing the memory is
 * released (release it only once work queued on it is complete, or
 * ordered before the producer reuses the memory). On failure `t` remains
 * the caller's, untouched. *out receives the new array (an array already
 * there is not written into: this is a view, as cusci_array_wrap makes).
 *
 * Accepted: kDLCUDA or kDLCUDAManaged with the context's GPU on a GPU
 * context; kDLCPU or kDLCUDAHost on a host context; lanes 1; the codes
 * and widths of the 14 cusci dtypes (bool is kDLBool of 8 bits). cusci
 * arrays are writable, so a versioned tensor flagged READ_ONLY is refused.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER (t, out, or data with a nonzero
 * size), CUSCI_ERR_NOT_SUPPORTED (a major version other than 1),
 * CUSCI_ERR_DEVICE, CUSCI_ERR_DTYPE (no cusci dtype, or lanes other than
 * 1), CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_OVERFLOW, CUSCI_ERR_VALUE
 * (data + byte_offset not a multiple of the element's size, as for
 * cusci_array_wrap), CUSCI_ERR_INVALID_ARGUMENT (READ_ONLY; a stream
 * other than NULL or CUSCI_DL_STREAM_NONE on a host context),
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_array_from_dlpack_versioned(cusci_ctx *ctx, cusci_dl_managed_tensor_versioned *t,
                                                         void *stream, cusci_array **out);
CUSCI_API cusci_status cusci_array_from_dlpack(cusci_ctx *ctx, cusci_dl_managed_tensor *t, void *stream,
                                               cusci_array **out);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_DLPACK_H */
