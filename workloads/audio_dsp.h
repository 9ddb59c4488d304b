/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audio_dsp.h - the audio workload's per-period work: a biquad low-pass over an
 * interleaved float buffer, run as many passes as the calibration says fill the duty
 * share of a period.
 */
#ifndef DEFERBENCH_AUDIO_DSP_H
#define DEFERBENCH_AUDIO_DSP_H

#include <stddef.h>
#include <stdint.h>

#define DSP_MAX_CHANNELS 32

struct dsp {
	float *in, *out;
	size_t frames;
	unsigned int channels;
	double b0, b1, b2, a1, a2;		/* normalised biquad coefficients */
	double z[DSP_MAX_CHANNELS][2];		/* transposed direct form II state */
	volatile float sink;			/* keeps the work from being optimised out */
};

/* dsp_init - buffers of frames x channels, white noise from seed; 0 or -ENOMEM */
int dsp_init(struct dsp *d, size_t frames, unsigned int channels, double rate,
	     uint64_t seed);
/* dsp_run - passes of the filter over the whole buffer */
void dsp_run(struct dsp *d, unsigned int passes);
/* dsp_calibrate - the cost of one pass, in ns, on the calling thread's CPU (fastest batch) */
uint64_t dsp_calibrate(struct dsp *d);
void dsp_free(struct dsp *d);

#endif
