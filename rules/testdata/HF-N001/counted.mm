// Objective-C's ownership policy: only alloc, new, copy and mutableCopy
// (or a retain) give the caller a reference to release.
#import <Metal/Metal.h>

void commit_and_release(id<MTLCommandQueue> queue) {
  id<MTLCommandBuffer> cb = [queue commandBuffer];
  [cb commit];
  [cb release];  // want "'cb' is given up by release, but no reference to it is held here \('commandBuffer' at line 6 gives none\)" confirmed
}

void release_twice(id<MTLDevice> device) {
  id<MTLBuffer> buf = [device newBufferWithLength:64 options:0];
  [buf release];
  [buf release];  // want "'buf' is given up by release again" confirmed
}

void use_after_release(id<MTLDevice> device) {
  id<MTLBuffer> buf = [device newBufferWithLength:64 options:0];
  [buf release];
  NSUInteger n = [buf length];  // want "'buf' is used after the memory it points to was freed by release at line 19" confirmed
}

// Correct: the array was handed the buffer and retains it.
void handed_then_released(id<MTLDevice> device, NSMutableArray* keep) {
  id<MTLBuffer> buf = [device newBufferWithLength:64 options:0];
  [keep addObject:buf];
  [buf release];
  NSUInteger n = [buf length];
}

// Correct: what alloc and new made is released once.
void release_owned(id<MTLDevice> device) {
  id<MTLBuffer> buf = [device newBufferWithLength:64 options:0];
  NSMutableArray* list = [[NSMutableArray alloc] init];
  [list release];
  [buf release];
}

// Correct: retained before it is released.
void retain_then_release(id<MTLCommandQueue> queue) {
  id<MTLCommandBuffer> cb = [[queue commandBuffer] retain];
  [cb commit];
  [cb release];
}

typedef id<MTLCommandBuffer> CommandBufferRef;

class CommandList {
 public:
  explicit CommandList(id<MTLCommandQueue> queue);
  ~CommandList();

 private:
  CommandBufferRef cmdbuf_;
};

CommandList::CommandList(id<MTLCommandQueue> queue) {
  cmdbuf_ = [queue commandBuffer];  // want "'cmdbuf_' is set from 'commandBuffer', which gives no reference, and ~CommandList releases it" confirmed
}

CommandList::~CommandList() { [cmdbuf_ release]; }

class RetainedList {
 public:
  explicit RetainedList(id<MTLCommandQueue> queue);
  ~RetainedList();

 private:
  CommandBufferRef cmdbuf_;
};

// Correct: retained when stored.
RetainedList::RetainedList(id<MTLCommandQueue> queue) {
  cmdbuf_ = [queue commandBuffer];
  [cmdbuf_ retain];
}

RetainedList::~RetainedList() { [cmdbuf_ release]; }

// A C++ method called on a C++ object (recv.f(), never how a send is
// written) returns what its code says, not an object a message returned:
// init of what it made is the caller's reference.
class Factory {
 public:
  id make() const;
};

static Factory factory;

class Delegated {
 public:
  Delegated();
  ~Delegated();

 private:
  id delegate_;
};

// Correct: init returns the reference its receiver gave.
Delegated::Delegated() { delegate_ = [factory.make() init]; }

Delegated::~Delegated() { [delegate_ release]; }

class Borrowed {
 public:
  explicit Borrowed(id<MTLCommandQueue> queue);
  ~Borrowed();

 private:
  id cb_;
};

Borrowed::Borrowed(id<MTLCommandQueue> queue) {
  cb_ = [queue commandBufferWithDescriptor:nil];  // want "'cb_' is set from 'commandBufferWithDescriptor', which gives no reference, and ~Borrowed releases it" confirmed
}

Borrowed::~Borrowed() { [cb_ release]; }
