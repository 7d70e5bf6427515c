// @(e) boxes a copy of e's value in a new object (a C string's bytes in
// an NSString): it keeps no pointer into a local array. The array itself,
// returned, dangles.
#import <Foundation/Foundation.h>

@interface Codes : NSObject
+ (NSString *)textFromCode:(uint32_t)code;
+ (const char *)bytesFromCode:(uint32_t)code;
@end

@implementation Codes

+ (NSString *)textFromCode:(uint32_t)code {
  char buf[5] = {(char)(code >> 24), (char)(code >> 16), (char)(code >> 8), (char)code, 0};
  NSString *text = @(buf);
  return text;
}

+ (const char *)bytesFromCode:(uint32_t)code {
  char buf[5] = {(char)(code >> 24), (char)(code >> 16), (char)(code >> 8), (char)code, 0};
  const char *bytes = buf;
  return bytes;  // want "returns 'bytes', which points into 'buf'" confirmed
}

@end
