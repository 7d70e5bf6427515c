// Vulkan: a command recorded into a command buffer uses the buffers it
// names once a submission runs it; destroying one (or freeing its memory)
// before a wait for that submission destroys what the device still uses.
#include <vulkan/vulkan.h>

void upload_unwaited_bad(VkDevice dev, VkQueue q, VkCommandBuffer cmd, VkBuffer dst, const VkBufferCreateInfo* info,
                         const VkSubmitInfo* submit, const VkBufferCopy* region) {
  VkBuffer staging;
  vkCreateBuffer(dev, info, nullptr, &staging);
  vkCmdCopyBuffer(cmd, staging, dst, 1, region);  // want "device-use-after-free"
  vkEndCommandBuffer(cmd);
  vkQueueSubmit(q, 1, submit, VK_NULL_HANDLE);
  vkDestroyBuffer(dev, staging, nullptr);
}

// Correct: the queue is waited for before the staging buffer goes.
void upload_waited_ok(VkDevice dev, VkQueue q, VkCommandBuffer cmd, VkBuffer dst, const VkBufferCreateInfo* info,
                      const VkSubmitInfo* submit, const VkBufferCopy* region) {
  VkBuffer staging;
  vkCreateBuffer(dev, info, nullptr, &staging);
  vkCmdCopyBuffer(cmd, staging, dst, 1, region);
  vkEndCommandBuffer(cmd);
  vkQueueSubmit(q, 1, submit, VK_NULL_HANDLE);
  vkQueueWaitIdle(q);
  vkDestroyBuffer(dev, staging, nullptr);
}

// Correct: recorded but never submitted (recording failed), the command
// buffer is not run.
bool record_failed_ok(VkDevice dev, VkQueue q, VkCommandBuffer cmd, VkBuffer dst, const VkBufferCreateInfo* info,
                      const VkSubmitInfo* submit, const VkBufferCopy* region) {
  VkBuffer staging;
  vkCreateBuffer(dev, info, nullptr, &staging);
  vkCmdCopyBuffer(cmd, staging, dst, 1, region);
  if (vkEndCommandBuffer(cmd) != VK_SUCCESS) {
    vkDestroyBuffer(dev, staging, nullptr);
    return false;
  }
  vkQueueSubmit(q, 1, submit, VK_NULL_HANDLE);
  vkQueueWaitIdle(q);
  vkDestroyBuffer(dev, staging, nullptr);
  return true;
}

// Correct: a fence of the submission is waited for.
void fenced_ok(VkDevice dev, VkQueue q, VkCommandBuffer cmd, VkBuffer src, const VkBufferCreateInfo* info,
               const VkSubmitInfo* submit, const VkBufferCopy* region, VkFence fence) {
  VkBuffer readback;
  vkCreateBuffer(dev, info, nullptr, &readback);
  vkCmdCopyBuffer(cmd, src, readback, 1, region);
  vkEndCommandBuffer(cmd);
  vkQueueSubmit(q, 1, submit, fence);
  vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX);
  vkDestroyBuffer(dev, readback, nullptr);
}
