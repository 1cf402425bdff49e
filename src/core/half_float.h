// Rounding a value to the half-precision formats models compute RoPE in by mistake: bfloat16 (torch's
// .to(torch.bfloat16): round to nearest even on the top 16 bits of the float32) and IEEE float16 (11
// significant bits, subnormals below 2^-14, infinity from 65520 on). The one home of these roundings.
#pragma once

namespace posenc {

// Non-finite values pass through.
double round_bf16(double v);
double round_fp16(double v);

}  // namespace posenc
