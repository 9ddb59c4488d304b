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

/* audio_dsp_init - buffers of frames x channels, white noise from seed; 0 or -ENOMEM */
int audio_dsp_init(struct dsp *d, size_t frames, unsigned int channels, double rate,
	     uint64_t seed);
/* audio_dsp_run - passes of the filter over the whole buffer */
void audio_dsp_run(struct dsp *d, unsigned int passes);
/* audio_dsp_calibrate - the cost of one pass, in ns, on the calling thread's CPU (fastest batch) */
uint64_t audio_dsp_calibrate(struct dsp *d);
void audio_dsp_free(struct dsp *d);

#endif
